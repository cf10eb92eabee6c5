/* Writing JSON. */
#ifndef LTO_LD_JSON_H
#define LTO_LD_JSON_H

#include <stdio.h>

/* S as a JSON string; bytes that are not UTF-8 become U+0080..U+00FF. */
void json_string(FILE *f, const char *s);

#endif
