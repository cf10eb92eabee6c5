#include "symname.h"
#include "util.h"

#include <string.h>

/* What GCC's LTO appends to a static it moves between partitions. */
#define LTO_PRIV "lto_priv"

/* The words GCC appends, each maybe followed by ".N". */
static const char *const words[] = {
	LTO_PRIV, "constprop", "isra", "part", "cold", "localalias", "clone",
};

const char *const *symname_suffix_words(size_t *n)
{
	*n = sizeof(words) / sizeof(words[0]);
	return words;
}

static bool is_word(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && !memcmp(s, words[i], len))
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

/* Length of NAME[0, LEN) once its last GCC suffix is removed; LEN if none. */
static size_t strip_one(const char *name, size_t len, enum symname_mode mode)
{
	size_t dot = last_dot(name, len), prev;
	const char *suffix = name + dot + 1;
	size_t slen = len - dot - 1;

	if (!dot)
		return len;
	if (all_digits(suffix, slen)) {
		prev = last_dot(name, dot);
		if (prev && is_word(name + prev + 1, dot - prev - 1))
			return prev;	/* .WORD.N */
		return mode == SYMNAME_STATICS ? dot : len;	/* a static's .N */
	}
	return is_word(suffix, slen) ? dot : len;
}

char *symname_normalize(const char *name, enum symname_mode mode)
{
	size_t end = strcspn(name, "@"), len = end, shorter;

	while ((shorter = strip_one(name, len, mode)) != len)
		len = shorter;
	if (len == end)
		return xstrdup(name);
	return xasprintf("%.*s%s", (int)len, name, name + end);
}

bool symname_is_copy(const char *name, size_t base)
{
	size_t len = strcspn(name, "@"), shorter;

	while (len > base) {
		shorter = strip_one(name, len, SYMNAME_CLONES);
		if (shorter == len)
			return false;
		len = shorter;
	}
	return len == base;
}

/* Does NAME start with ".lto_priv.N", followed by its end or a '.'?  Its length, or 0. */
static size_t lto_priv_at(const char *name)
{
	size_t word = strlen("." LTO_PRIV "."), digits;

	if (strncmp(name, "." LTO_PRIV ".", word))
		return 0;
	digits = strspn(name + word, "0123456789");
	if (!digits || (name[word + digits] && name[word + digits] != '.'))
		return 0;
	return word + digits;
}

bool symname_is_privatized(const char *name)
{
	/* (a suffix follows a name: never at the start) */
	for (const char *p = *name ? name + 1 : name; (p = strchr(p, '.')); p++)
		if (lto_priv_at(p))
			return true;
	return false;
}

size_t symname_unprivatize(const char *name, char *out)
{
	size_t len = 0, skip;

	/* (a suffix follows a name: never at the start) */
	if (*name)
		out[len++] = *name++;
	while (*name) {
		skip = lto_priv_at(name);
		if (skip)
			name += skip;
		else
			out[len++] = *name++;
	}
	out[len] = '\0';
	return len;
}
