#include "print.h"
#include "node.h"

static void print_node(FILE *out, const struct node *n, int indent);

static void indent_by(FILE *out, int n) {
    while (n-- > 0)
        fputc(' ', out);
}

void print_tree(FILE *out, const struct node *n) { print_node(out, n, 0); }

static void print_children(FILE *out, const struct node *n, int indent) {
    print_node(out, n->left, indent + 2);
    print_node(out, n->right, indent + 2);
}

static void print_node(FILE *out, const struct node *n, int indent) {
    if (!n)
        return;
    indent_by(out, indent);
    fprintf(out, "%d (depth %d)\n", n->kind, node_depth(n));
    print_children(out, n, indent);
}
