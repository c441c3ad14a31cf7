#ifndef TEST_RUNNER_H
#define TEST_RUNNER_H

int expect(int ok, const char *message);
int run_test(const char *name, int (*fn)(void));

#endif
