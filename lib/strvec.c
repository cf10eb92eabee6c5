#include "strvec.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *strvec_empty[1];

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty;
	sv->n = sv->alloc = 0;
}

void strvec_push_nodup(struct strvec *sv, char *s)
{
	if (!sv->alloc)
		sv->v = NULL;	/* strvec_empty, or a zeroed structure */
	ALLOC_GROW(sv->v, sv->n + 1, sv->alloc);
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_nodup(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strvec_push_nodup(sv, xvasprintf(fmt, ap));
	va_end(ap);
}

void strvec_pushv(struct strvec *sv, char *const *v)
{
	for (; *v; v++)
		strvec_push(sv, *v);
}

void strvec_pushl(struct strvec *sv, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	if (sv->alloc)
		free(sv->v);
	strvec_init(sv);
}

char **strvec_detach(struct strvec *sv)
{
	char **v = sv->alloc ? sv->v : xcalloc(1, sizeof(*v));

	strvec_init(sv);
	return v;
}

size_t strvec_bytes(const struct strvec *sv)
{
	size_t total = 0;

	for (size_t i = 0; i < sv->n; i++)
		total += strlen(sv->v[i]) + 1;
	return total;
}

char *strvec_join(const struct strvec *sv, const char *after)
{
	size_t after_len = strlen(after), len = 0;
	char *text, *p;

	for (size_t i = 0; i < sv->n; i++)
		len += strlen(sv->v[i]) + after_len;
	text = p = xmalloc(len + 1);
	for (size_t i = 0; i < sv->n; i++) {
		size_t n = strlen(sv->v[i]);

		memcpy(p, sv->v[i], n);
		memcpy(p + n, after, after_len);
		p += n + after_len;
	}
	*p = '\0';
	return text;
}
