/* A small JSON reader (RFC 8259), for lto-ld's JSON report. */
#include "jsonread.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than any report has; bounds the recursion on bad input. */
#define MAX_DEPTH 64

struct parser {
	const char *start, *p, *end;
	const char *what;	/* the first error, or NULL */
	const char *where;
};

static int fail(struct parser *ps, const char *what)
{
	if (!ps->what) {
		ps->what = what;
		ps->where = ps->p;
	}
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && *ps->p && strchr(" \t\r\n", *ps->p))
		ps->p++;
}

static bool at(const struct parser *ps, char c)
{
	return ps->p < ps->end && *ps->p == c;
}

static int parse_value(struct parser *ps, struct json *j, int depth);

/* ---- strings ---- */

struct buf {
	char *s;
	size_t n, alloc;
};

static void put(struct buf *b, char c)
{
	ALLOC_GROW(b->s, b->n + 1, b->alloc);
	b->s[b->n++] = c;
}

/* Four hex digits at P as a number, or -1. */
static long hex4(const char *p, const char *end)
{
	long v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static void put_utf8(struct buf *b, unsigned long c)
{
	if (c < 0x80) {
		put(b, (char)c);
	} else if (c < 0x800) {
		put(b, (char)(0xc0 | c >> 6));
		put(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		put(b, (char)(0xe0 | c >> 12));
		put(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		put(b, (char)(0x80 | (c & 0x3f)));
	} else {
		put(b, (char)(0xf0 | c >> 18));
		put(b, (char)(0x80 | ((c >> 12) & 0x3f)));
		put(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		put(b, (char)(0x80 | (c & 0x3f)));
	}
}

/* \uXXXX (ps->p past the 'u'), a surrogate pair taken whole. */
static int unicode_escape(struct parser *ps, struct buf *b)
{
	long c = hex4(ps->p, ps->end), lo;

	if (c < 0)
		return fail(ps, "bad \\u escape");
	ps->p += 4;
	if (c >= 0xd800 && c <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    (lo = hex4(ps->p + 2, ps->end)) < 0xdc00 || lo > 0xdfff)
			return fail(ps, "a lone surrogate in a \\u escape");
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		ps->p += 6;
	} else if (c >= 0xdc00 && c <= 0xdfff) {
		return fail(ps, "a lone surrogate in a \\u escape");
	}
	if (c == 0)
		return fail(ps, "\\u0000 in a string");
	if (c >= 0x80 && c <= 0xff)
		put(b, (char)c);	/* wrapper/json.c's byte that is not UTF-8 */
	else
		put_utf8(b, (unsigned long)c);
	return 0;
}

static int escape(struct parser *ps, struct buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;

	if (ps->p >= ps->end)
		return fail(ps, "an unterminated string");
	if (*ps->p == 'u') {
		ps->p++;
		return unicode_escape(ps, b);
	}
	e = *ps->p ? strchr(from, *ps->p) : NULL;
	if (!e)
		return fail(ps, "a bad escape in a string");
	put(b, to[e - from]);
	ps->p++;
	return 0;
}

/* A string at ps->p (its opening quote) into *OUT, newly allocated. */
static int parse_string(struct parser *ps, char **out)
{
	struct buf b = { NULL, 0, 0 };

	ps->p++;
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;

		if (c < 0x20) {
			free(b.s);
			return fail(ps, "a control character in a string");
		}
		ps->p++;
		if (c == '\\' ? escape(ps, &b) : (put(&b, (char)c), 0)) {
			free(b.s);
			return -1;
		}
	}
	if (ps->p >= ps->end) {
		free(b.s);
		return fail(ps, "an unterminated string");
	}
	ps->p++;
	put(&b, '\0');
	*out = b.s;
	return 0;
}

/* ---- numbers and words ---- */

static size_t digits(const struct parser *ps, const char *p)
{
	size_t n = 0;

	while (p + n < ps->end && p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

static int parse_number(struct parser *ps, struct json *j)
{
	const char *p = ps->p;
	size_t n;

	if (p < ps->end && *p == '-')
		p++;
	n = digits(ps, p);
	if (!n || (n > 1 && *p == '0'))
		return fail(ps, "a bad number");
	p += n;
	if (p < ps->end && *p == '.') {
		if (!(n = digits(ps, ++p)))
			return fail(ps, "a bad number");
		p += n;
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		if (!(n = digits(ps, p)))
			return fail(ps, "a bad number");
		p += n;
	}
	j->type = JSON_NUMBER;
	j->text = xstrndup(ps->p, (size_t)(p - ps->p));
	ps->p = p;
	return 0;
}

static int parse_word(struct parser *ps, struct json *j)
{
	static const struct { const char *word; enum json_type type; } words[] = {
		{ "null", JSON_NULL }, { "false", JSON_FALSE }, { "true", JSON_TRUE },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t len = strlen(words[i].word);

		if ((size_t)(ps->end - ps->p) >= len && !memcmp(ps->p, words[i].word, len)) {
			j->type = words[i].type;
			ps->p += len;
			return 0;
		}
	}
	return fail(ps, "not a JSON value");
}

/* ---- arrays and objects ---- */

/* Room for one more element of J (and its key, for an object). */
static struct json *add(struct json *j, size_t *alloc)
{
	if (j->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		j->v = xrealloc(j->v, *alloc * sizeof(*j->v));
		if (j->type == JSON_OBJECT)
			j->keys = xrealloc(j->keys, *alloc * sizeof(*j->keys));
	}
	memset(&j->v[j->n], 0, sizeof(j->v[j->n]));
	return &j->v[j->n];
}

/* One member "key": value of an object, at ps->p. */
static int parse_member(struct parser *ps, struct json *j, size_t *alloc, int depth)
{
	char *key;
	struct json *v;

	if (!at(ps, '"'))
		return fail(ps, "an object member without a string key");
	if (parse_string(ps, &key))
		return -1;
	skip_space(ps);
	if (!at(ps, ':')) {
		free(key);
		return fail(ps, "no ':' after an object key");
	}
	ps->p++;
	v = add(j, alloc);
	j->keys[j->n++] = key;
	return parse_value(ps, v, depth);
}

/* One element of an array, at ps->p; counted before it is parsed, so
 * that json_free releases what a failure leaves of it. */
static int parse_element(struct parser *ps, struct json *j, size_t *alloc, int depth)
{
	struct json *v = add(j, alloc);

	j->n++;
	return parse_value(ps, v, depth);
}

/* An array or object at ps->p (its bracket); elements until CLOSE. */
static int parse_list(struct parser *ps, struct json *j, int depth)
{
	char close = *ps->p == '[' ? ']' : '}';
	size_t alloc = 0;

	j->type = close == ']' ? JSON_ARRAY : JSON_OBJECT;
	if (depth > MAX_DEPTH)
		return fail(ps, "nested too deep");
	ps->p++;
	skip_space(ps);
	if (at(ps, close)) {
		ps->p++;
		return 0;
	}
	for (;;) {
		skip_space(ps);
		if (j->type == JSON_OBJECT ? parse_member(ps, j, &alloc, depth + 1) :
		    parse_element(ps, j, &alloc, depth + 1))
			return -1;
		skip_space(ps);
		if (at(ps, close)) {
			ps->p++;
			return 0;
		}
		if (!at(ps, ','))
			return fail(ps, close == ']' ? "no ',' or ']' after an array element" :
				    "no ',' or '}' after an object member");
		ps->p++;
	}
}

static int parse_value(struct parser *ps, struct json *j, int depth)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "the text ends where a value should be");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_list(ps, j, depth);
	case '"':
		j->type = JSON_STRING;
		return parse_string(ps, &j->text);
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return parse_number(ps, j);
	default:
		return parse_word(ps, j);
	}
}

/* The line and column of ps->where. */
static void locate(const struct parser *ps, struct json_error *err)
{
	err->line = 1;
	err->column = 1;
	for (const char *p = ps->start; p < ps->where; p++) {
		if (*p == '\n') {
			err->line++;
			err->column = 1;
		} else {
			err->column++;
		}
	}
}

int json_parse(const char *text, size_t len, struct json *root,
	       struct json_error *err)
{
	struct parser ps = { text, text, text + len, NULL, NULL };

	memset(root, 0, sizeof(*root));
	if (!parse_value(&ps, root, 0)) {
		skip_space(&ps);
		if (ps.p == ps.end)
			return 0;
		fail(&ps, "more text after the JSON value");
	}
	err->what = ps.what;
	locate(&ps, err);
	json_free(root);
	return -1;
}

void json_free(struct json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		json_free(&j->v[i]);
		if (j->type == JSON_OBJECT)
			free(j->keys[i]);
	}
	free(j->v);
	free(j->keys);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->v[i];
	return NULL;
}

const char *json_get_string(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->text : NULL;
}
