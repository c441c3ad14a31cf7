#include <stdlib.h>

#include "node.h"

static int max(int a, int b) { return a > b ? a : b; }

struct node *node_new(int kind) {
    struct node *n = calloc(1, sizeof *n);
    if (n)
        n->kind = kind;
    return n;
}

void node_free(struct node *n) {
    if (!n)
        return;
    node_free(n->left);
    node_free(n->right);
    free(n);
}

int node_depth(const struct node *n) {
    return n ? 1 + max(node_depth(n->left), node_depth(n->right)) : 0;
}
