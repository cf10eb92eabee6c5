#include "symname.h"
#include "util.h"

#include <stdbool.h>
#include <string.h>

/* Suffixes followed by ".N". */
static const char *const numbered[] = {
	"lto_priv", "constprop", "isra", "part", "cold", "clone",
};
/* Suffixes that stand alone. */
static const char *const bare[] = { "cold", "localalias" };

static bool is_one_of(const char *s, size_t len, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(set[i]) == len && !memcmp(s, set[i], len))
			return true;
	return false;
}

static bool all_digits(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* The last '.' in NAME[0, LEN) after the first character, or 0. */
static size_t last_dot(const char *name, size_t len)
{
	while (len > 1)
		if (name[--len] == '.')
			return len;
	return 0;
}

/* Length of NAME[0, LEN) once one GCC suffix is removed; LEN if none. */
static size_t strip_one(const char *name, size_t len)
{
	size_t dot = last_dot(name, len), prev;
	const char *suffix = name + dot + 1;
	size_t slen = len - dot - 1;

	if (!dot)
		return len;
	if (all_digits(suffix, slen)) {
		prev = last_dot(name, dot);
		if (prev && is_one_of(name + prev + 1, dot - prev - 1, numbered,
				      sizeof(numbered) / sizeof(numbered[0])))
			return prev;
		return dot;	/* a function's static: name.N */
	}
	if (is_one_of(suffix, slen, bare, sizeof(bare) / sizeof(bare[0])))
		return dot;
	return len;
}

char *symname_normalize(const char *name)
{
	size_t end = strcspn(name, "@"), len = end, shorter;

	while ((shorter = strip_one(name, len)) != len)
		len = shorter;
	if (len == end)
		return xstrdup(name);
	return xasprintf("%.*s%s", (int)len, name, name + end);
}
