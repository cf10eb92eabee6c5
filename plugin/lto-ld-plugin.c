/*
 * lto-ld-plugin.so: a linker plugin that stands in front of GCC's
 * liblto_plugin.so.  The linker loads this one; it loads GCC's, hands it
 * the linker's transfer vector with a few entries replaced, and adds link
 * policy on the way:
 *
 *   lto-ld:gcc-plugin=PATH   GCC's plugin (required)
 *   lto-ld:whole-program     in a relocatable link, IR definitions nothing
 *                            outside the IR uses become internal to the
 *                            LTO unit (PREVAILING_DEF_IRONLY), unless kept
 *   lto-ld:keep=GLOB         keep matching names (fnmatch); repeatable
 *   lto-ld:keep-file=FILE    keep the names or globs in FILE, one a line
 *
 * All other -plugin-opt options are GCC's and reach it unchanged.  With no
 * policy option the plugin only forwards: the link is GCC's.
 *
 * Read top to bottom: options, the keep set, the interposed get_symbols,
 * onload.
 */
#include <stdint.h>	/* plugin-api.h needs it first */
#include <plugin-api.h>

#include <dlfcn.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPT_PREFIX "lto-ld:"
#define MAX_TV 64

/*
 * Names the compiler may call or read without any IR symbol saying so
 * (libcalls, stack protector, profiling): never internalized.
 */
static const char *const compiler_names[] = {
	"memcpy", "memmove", "memset", "memcmp", "bcmp", "strcpy", "strncpy",
	"strlen", "strcmp", "strncmp", "strcat", "strchr", "strrchr",
	"strnlen", "stpcpy", "abort", "__stack_chk_guard", "__stack_chk_fail",
	"__div0", "__gnu_mcount_nc", "mcount", "__fentry__", "_mcount",
	"__aeabi_*", "__gnu_*", "__*di2", "__*si2", "__*di3", "__*si3",
	"__*sf*", "__*df*", "__clear_cache", "__sync_*", "__atomic_*",
};

static struct {
	ld_plugin_message message;
	ld_plugin_get_symbols get_symbols;	/* the linker's v1 */
	ld_plugin_get_symbols get_symbols_v2;
	ld_plugin_get_symbols get_symbols_v3;
	enum ld_plugin_output_file_type output_type;
	bool whole_program;
	char **keep;
	size_t nkeep;
} self;

/* ---- messages ---- */

#define report(level, ...)                                              \
	do {                                                            \
		if (self.message)                                       \
			self.message(level, "lto-ld-plugin: " __VA_ARGS__); \
		else                                                    \
			fprintf(stderr, "lto-ld-plugin: " __VA_ARGS__); \
	} while (0)

/* ---- the keep set ---- */

static void keep_add(const char *glob)
{
	char **grown = realloc(self.keep, (self.nkeep + 1) * sizeof(*self.keep));
	char *copy = strdup(glob);

	if (!grown || !copy)
		abort();
	self.keep = grown;
	self.keep[self.nkeep++] = copy;
}

static int keep_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	if (!f) {
		report(LDPL_FATAL, "%s: cannot read the keep file", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n#");

		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		line[len] = '\0';
		if (len)
			keep_add(line + strspn(line, " \t"));
	}
	fclose(f);
	return 0;
}

static bool kept(const char *name)
{
	for (size_t i = 0; i < sizeof(compiler_names) / sizeof(compiler_names[0]); i++)
		if (!fnmatch(compiler_names[i], name, 0))
			return true;
	for (size_t i = 0; i < self.nkeep; i++)
		if (!fnmatch(self.keep[i], name, 0))
			return true;
	return false;
}

/* ---- get_symbols: the linker's resolutions, with the policy applied ---- */

static void apply_policy(int nsyms, struct ld_plugin_symbol *syms)
{
	if (!self.whole_program || self.output_type != LDPO_REL)
		return;
	for (int i = 0; i < nsyms; i++) {
		struct ld_plugin_symbol *s = &syms[i];

		/* A weak definition may still be overridden by a later link. */
		if (s->resolution != LDPR_PREVAILING_DEF_IRONLY_EXP ||
		    s->def == LDPK_WEAKDEF || kept(s->name))
			continue;
		s->resolution = LDPR_PREVAILING_DEF_IRONLY;
	}
}

/* After the linker answered get_symbols: the policy on its resolutions. */
static enum ld_plugin_status resolved(enum ld_plugin_status st, int nsyms,
				      struct ld_plugin_symbol *syms)
{
	if (st == LDPS_OK || st == LDPS_NO_SYMS)
		apply_policy(nsyms, syms);
	return st;
}

static enum ld_plugin_status get_symbols_v1(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols(handle, nsyms, syms), nsyms, syms);
}

static enum ld_plugin_status get_symbols_v2(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols_v2(handle, nsyms, syms), nsyms, syms);
}

static enum ld_plugin_status get_symbols_v3(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols_v3(handle, nsyms, syms), nsyms, syms);
}

/* ---- onload ---- */

/* One of our options; returns -1 on a bad one. */
static int our_option(const char *opt, const char **gcc_plugin)
{
	if (!strncmp(opt, "gcc-plugin=", 11))
		*gcc_plugin = opt + 11;
	else if (!strcmp(opt, "whole-program"))
		self.whole_program = true;
	else if (!strncmp(opt, "keep=", 5) && opt[5])
		keep_add(opt + 5);
	else if (!strncmp(opt, "keep-file=", 10))
		return keep_file(opt + 10);
	else {
		report(LDPL_FATAL, "unknown option '%s%s'", OPT_PREFIX, opt);
		return -1;
	}
	return 0;
}

enum ld_plugin_status onload(struct ld_plugin_tv *tv);

enum ld_plugin_status onload(struct ld_plugin_tv *tv)
{
	static struct ld_plugin_tv inner[MAX_TV];
	const char *gcc_plugin = NULL;
	ld_plugin_onload gcc_onload;
	void *handle;
	int n = 0;

	for (struct ld_plugin_tv *p = tv; p->tv_tag != LDPT_NULL; p++)
		if (p->tv_tag == LDPT_MESSAGE)
			self.message = p->tv_u.tv_message;
	for (struct ld_plugin_tv *p = tv; p->tv_tag != LDPT_NULL && n < MAX_TV - 1; p++) {
		inner[n] = *p;
		switch (p->tv_tag) {
		case LDPT_OPTION:
			if (!strncmp(p->tv_u.tv_string, OPT_PREFIX, strlen(OPT_PREFIX))) {
				if (our_option(p->tv_u.tv_string + strlen(OPT_PREFIX),
					       &gcc_plugin))
					return LDPS_ERR;
				continue;	/* not GCC's */
			}
			break;
		case LDPT_LINKER_OUTPUT:
			self.output_type = (enum ld_plugin_output_file_type)p->tv_u.tv_val;
			break;
		case LDPT_GET_SYMBOLS:
			self.get_symbols = p->tv_u.tv_get_symbols;
			inner[n].tv_u.tv_get_symbols = get_symbols_v1;
			break;
		case LDPT_GET_SYMBOLS_V2:
			self.get_symbols_v2 = p->tv_u.tv_get_symbols;
			inner[n].tv_u.tv_get_symbols = get_symbols_v2;
			break;
		case LDPT_GET_SYMBOLS_V3:
			self.get_symbols_v3 = p->tv_u.tv_get_symbols;
			inner[n].tv_u.tv_get_symbols = get_symbols_v3;
			break;
		default:
			break;
		}
		n++;
	}
	inner[n].tv_tag = LDPT_NULL;
	inner[n].tv_u.tv_val = 0;

	if (!gcc_plugin) {
		report(LDPL_FATAL, "no -plugin-opt=%sgcc-plugin=PATH given", OPT_PREFIX);
		return LDPS_ERR;
	}
	handle = dlopen(gcc_plugin, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		report(LDPL_FATAL, "cannot load GCC's plugin: %s", dlerror());
		return LDPS_ERR;
	}
	gcc_onload = (ld_plugin_onload)(uintptr_t)dlsym(handle, "onload");
	if (!gcc_onload) {
		report(LDPL_FATAL, "%s has no onload", gcc_plugin);
		return LDPS_ERR;
	}
	return gcc_onload(inner);
}
