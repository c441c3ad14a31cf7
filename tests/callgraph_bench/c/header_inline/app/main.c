#include <stdio.h>

#include "sb/strbuf.h"
#include "quote.h"

int main(int argc, char **argv) {
    strbuf out = {0};
    int i;
    for (i = 1; i < argc; i++) {
        if (i > 1)
            sb_adds(&out, ", ");
        quote_into(&out, argv[i]);
    }
    sb_addch(&out, '\n');
    fputs(out.buf ? out.buf : "\n", stdout);
    sb_release(&out);
    return 0;
}
