#include <stdio.h>

#include "node.h"
#include "print.h"

int max(int a, int b);
int count_nodes(const struct node *n);

/* the parameter hides the function node_depth */
static int report(int (*node_depth)(const struct node *), const struct node *n) {
    return node_depth(n);
}

int main(void) {
    struct node *root = node_new(1);
    root->left = node_new(2);
    print_tree(stdout, root);
    printf("%d\n", max(count_nodes(root), node_depth(root)));
    printf("%d\n", report(count_nodes, root));
    node_free(root);
    return 0;
}
