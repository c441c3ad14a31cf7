#ifndef PRINT_H
#define PRINT_H

#include <stdio.h>

struct node;

void print_tree(FILE *out, const struct node *n);

#endif
