/*
 * Reading JSON: lto-sizediff reads lto-ld's --lto-report=FILE.json with
 * it.  The whole text becomes a tree of values; nothing is streamed, since
 * the largest report (the kernel's vmlinux.o link) is a few megabytes.
 */
#ifndef LTO_SIZEDIFF_JSONREAD_H
#define LTO_SIZEDIFF_JSONREAD_H

#include <stddef.h>

enum json_type {
	JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
	JSON_ARRAY, JSON_OBJECT,
};

struct json {
	enum json_type type;
	/* STRING: the decoded text; NUMBER: the number as written */
	char *text;
	/* ARRAY: the elements; OBJECT: the members' values, keys[i] naming v[i] */
	struct json *v;
	char **keys;
	size_t n;
};

/* Where and why TEXT is not JSON. */
struct json_error {
	size_t line, column;	/* from 1 */
	const char *what;
};

/*
 * TEXT[0, LEN) parsed into *ROOT (released with json_free), or -1 with
 * *ERR filled in.  A string cannot hold a NUL (\u0000 is refused), and
 * \u0080..\u00ff decode to the single byte, which is how wrapper/json.c
 * writes a byte that is not UTF-8.
 */
int json_parse(const char *text, size_t len, struct json *root,
	       struct json_error *err);
void json_free(struct json *j);

/* OBJ's member KEY (the first, if repeated), or NULL; NULL for a non-object. */
const struct json *json_get(const struct json *obj, const char *key);
/* ... when it is a string: its text, else NULL. */
const char *json_get_string(const struct json *obj, const char *key);

#endif
