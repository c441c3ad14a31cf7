#ifndef FSX_WIN_INTERNAL_H
#define FSX_WIN_INTERNAL_H

int fsx__translate(int win_error);

#endif
