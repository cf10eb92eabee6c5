/* Unit tests of GCC's suffix rule (lib/symname.c) in both its modes. */
#include "../../lib/symname.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/*
 * The kernel checks' shell copy of the rule (gcc_suffix_words='a|b|...'
 * in tests/kernel/gcc-suffixes.sh) names the same words as lib/symname.c.
 */
static void shell_rule_agrees(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096], line[512], *words = NULL, *end;
	const char *const *lib_words;
	size_t n, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/kernel/gcc-suffixes.sh", top ? top : "../..");
	f = fopen(path, "r");
	if (!f)
		tap_bail_out(path);
	while (!words && fgets(line, sizeof(line), f))
		if (!strncmp(line, "gcc_suffix_words='", 18))
			words = line + 18;
	fclose(f);
	ok(words && (end = strchr(words, '\'')), "%s names gcc_suffix_words", path);
	if (!words || !end)
		return;
	*end = '\0';
	lib_words = symname_suffix_words(&n);
	for (char *w = strtok(words, "|"); w; w = strtok(NULL, "|")) {
		size_t i = 0;

		while (i < n && strcmp(lib_words[i], w))
			i++;
		ok(i < n, "the kernel checks' suffix '%s' is lib/symname's", w);
		found += i < n;
	}
	ok(found == n, "the kernel checks name all %zu of lib/symname's suffixes (%zu)", n, found);
}

static void normalizes(const char *name, enum symname_mode mode, const char *want)
{
	char *got = symname_normalize(name, mode);

	is_str(got, want, "%s (%s) is %s", name,
	       mode == SYMNAME_CLONES ? "clones" : "statics", want);
	free(got);
}

/* Names both modes normalize alike, and what they become. */
static const char *const alike[][2] = {
	{ "foo", "foo" }, { "foo.lto_priv.0", "foo" }, { "foo.constprop.3", "foo" },
	{ "foo.isra.0.constprop.1", "foo" }, { "foo.part.1", "foo" },
	{ "foo.cold", "foo" }, { "foo.cold.2", "foo" }, { "foo.localalias", "foo" },
	{ "foo.clone.4", "foo" }, { "foo.constprop.0@@VER_1", "foo@@VER_1" },
	{ "foo.bar", "foo.bar" }, { ".L.str", ".L.str" },
};

/* symname_unprivatize(NAME) is WANT. */
static void unprivatized(const char *name, const char *want)
{
	char got[64];

	symname_unprivatize(name, got);
	ok(!strcmp(got, want), "%s is %s (%s)", name, want, got);
	ok(symname_is_privatized(name) == (strcmp(name, want) != 0),
	   "%s is %sprivatized", name, strcmp(name, want) ? "" : "not ");
}

int main(void)
{
	shell_rule_agrees();
	for (size_t i = 0; i < sizeof(alike) / sizeof(alike[0]); i++) {
		normalizes(alike[i][0], SYMNAME_CLONES, alike[i][1]);
		normalizes(alike[i][0], SYMNAME_STATICS, alike[i][1]);
	}
	normalizes("buf.12", SYMNAME_CLONES, "buf.12");
	normalizes("buf.12", SYMNAME_STATICS, "buf");
	normalizes("__func__.3.constprop.0", SYMNAME_CLONES, "__func__.3");
	normalizes("__func__.3.constprop.0", SYMNAME_STATICS, "__func__");
	ok(symname_is_copy("foo.constprop.0", 3), "foo.constprop.0 is a copy of foo");
	ok(symname_is_copy("foo.isra.0.cold", 3), "foo.isra.0.cold is a copy of foo");
	ok(!symname_is_copy("foo.0", 3), "foo.0 (a static) is not a copy of foo");
	ok(!symname_is_copy("foo.bar.cold", 3), "foo.bar.cold is not a copy of foo");
	ok(symname_is_copy("foo.bar.cold", 7), "...but of foo.bar");
	ok(symname_is_copy("foo", 3), "foo is itself");
	unprivatized("foo.lto_priv.0", "foo");
	unprivatized("twin.lto_priv.1.lto_priv.0", "twin");
	unprivatized("foo.lto_priv.0.constprop.0", "foo.constprop.0");
	unprivatized("quirk.lto_priv.848166919.part.0", "quirk.part.0");
	unprivatized("foo.constprop.0.lto_priv.3", "foo.constprop.0");
	unprivatized("foo.lto_priv", "foo.lto_priv");
	unprivatized("foo.lto_priv.", "foo.lto_priv.");
	unprivatized("foo.lto_priv.x", "foo.lto_priv.x");
	unprivatized("foo.lto_priv.0x", "foo.lto_priv.0x");
	unprivatized(".lto_priv.0", ".lto_priv.0");
	unprivatized("a.xlto_priv.0", "a.xlto_priv.0");
	unprivatized("foo", "foo");
	unprivatized("", "");
	return tap_done();
}
