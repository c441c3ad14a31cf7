#ifndef NODE_H
#define NODE_H

struct node {
    int kind;
    struct node *left;
    struct node *right;
};

struct node *node_new(int kind);
void node_free(struct node *n);
int node_depth(const struct node *n);

#endif
