#include "node.h"

/* not node.c's max, which is static there */
int max(int a, int b) { return a > b ? a : b; }

int count_nodes(const struct node *n) {
    return n ? 1 + count_nodes(n->left) + count_nodes(n->right) : 0;
}
