/* GCC's option record (optrecord.h), read as lto-wrapper reads it. */
#include "optrecord.h"
#include "io.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool ends_option(char c)
{
	return c == ' ' || c == '\0';
}

/*
 * One option from TEXT[*I] on, decoded into OUT (room for what is left
 * of TEXT): 'quoted runs', a backslash-escaped character (the \' of
 * '\''), plain characters.  Returns its length; *I is after it.
 */
static size_t decode_option(const char *text, size_t len, size_t *i, char *out)
{
	size_t n = 0, p = *i;

	while (p < len && !ends_option(text[p])) {
		if (text[p] == '\'') {
			for (p++; p < len && text[p] != '\'' && text[p]; p++)
				out[n++] = text[p];
			p += p < len && text[p] == '\'';
		} else if (text[p] == '\\' && p + 1 < len && text[p + 1]) {
			out[n++] = text[p + 1];
			p += 2;
		} else {
			out[n++] = text[p++];
		}
	}
	*i = p;
	return n;
}

void optrecord_split(const char *text, size_t len, struct strvec *opts)
{
	char *out = xmalloc(len + 1);

	for (size_t i = 0; i < len;) {
		size_t n;

		if (ends_option(text[i])) {
			i++;
			continue;
		}
		n = decode_option(text, len, &i, out);
		strvec_push_nodup(opts, xstrndup(out, n));
	}
	free(out);
}

int optrecord_read(int fd, off_t offset, uint64_t size, struct strvec *opts)
{
	char *text;
	bool got;

	if (size > OPTRECORD_MAX)
		return -1;
	text = xmalloc((size_t)size + 1);
	got = pread_full(fd, text, (size_t)size, offset);
	if (got)
		optrecord_split(text, (size_t)size, opts);
	free(text);
	return got ? 0 : -1;
}
