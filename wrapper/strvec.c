#include "strvec.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void strvec_push_nodup(struct strvec *sv, char *s)
{
	if (sv->n + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 16;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
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
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

size_t strvec_bytes(const struct strvec *sv)
{
	size_t total = 0;

	for (size_t i = 0; i < sv->n; i++)
		total += strlen(sv->v[i]) + 1;
	return total;
}
