#include "ldopts.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum has_arg { NO_ARG, REQ_ARG, OPT_ARG };

/* What lto-ld needs to know about an option; most are just "other". */
enum opt_id {
	O_OTHER,
	O_OUTPUT,
	O_RELOCATABLE,
	O_LIBRARY,
	O_LIBPATH,
	O_WHOLE,
	O_NO_WHOLE,
	O_PUSH_STATE,
	O_POP_STATE,
	O_STATIC,
	O_DYNAMIC,
	O_FORMAT,
	O_SYSROOT,
	O_NOSTDLIB,
	O_PLUGIN,
	O_VERSION,
	O_VERBOSE_VERSION,	/* -v, -V: version only when nothing is linked */
	O_HELP,
	O_EMULATION,
	O_END_OF_OPTIONS,
};

struct opt {
	const char *name;
	enum has_arg has_arg;
	enum opt_id id;
};

/* Single-letter options (from ld's getopt string). */
static const struct opt short_opts[] = {
	{ "a", REQ_ARG, O_OTHER },	{ "A", REQ_ARG, O_OTHER },
	{ "b", REQ_ARG, O_FORMAT },	{ "c", REQ_ARG, O_OTHER },
	{ "d", NO_ARG, O_OTHER },	{ "e", REQ_ARG, O_OTHER },
	{ "E", NO_ARG, O_OTHER },	{ "f", REQ_ARG, O_OTHER },
	{ "F", REQ_ARG, O_OTHER },	{ "g", NO_ARG, O_OTHER },
	{ "G", REQ_ARG, O_OTHER },	{ "h", REQ_ARG, O_OTHER },
	{ "i", NO_ARG, O_RELOCATABLE },	{ "I", REQ_ARG, O_OTHER },
	{ "l", REQ_ARG, O_LIBRARY },	{ "L", REQ_ARG, O_LIBPATH },
	{ "m", REQ_ARG, O_EMULATION },	{ "M", NO_ARG, O_OTHER },
	{ "n", NO_ARG, O_OTHER },	{ "N", NO_ARG, O_OTHER },
	{ "o", REQ_ARG, O_OUTPUT },	{ "O", REQ_ARG, O_OTHER },
	{ "P", REQ_ARG, O_OTHER },	{ "q", NO_ARG, O_OTHER },
	{ "r", NO_ARG, O_RELOCATABLE },	{ "R", REQ_ARG, O_OTHER },
	{ "s", NO_ARG, O_OTHER },	{ "S", NO_ARG, O_OTHER },
	{ "t", NO_ARG, O_OTHER },	{ "T", REQ_ARG, O_OTHER },
	{ "u", REQ_ARG, O_OTHER },	{ "v", NO_ARG, O_VERBOSE_VERSION },
	{ "V", NO_ARG, O_VERBOSE_VERSION }, { "w", NO_ARG, O_OTHER },
	{ "x", NO_ARG, O_OTHER },	{ "X", NO_ARG, O_OTHER },
	{ "y", REQ_ARG, O_OTHER },	{ "Y", REQ_ARG, O_OTHER },
	{ "z", REQ_ARG, O_OTHER },	{ "(", NO_ARG, O_OTHER },
	{ ")", NO_ARG, O_OTHER },
};

/*
 * Long options of binutils 2.40 ld (host and ARM emulations), with one or
 * two dashes.  The no-argument ones are listed too: getopt accepts unique
 * prefixes, and uniqueness depends on the whole set.
 */
static const struct opt long_opts[] = {
	{ "Bdynamic", NO_ARG, O_DYNAMIC },
	{ "Bgroup", NO_ARG, O_OTHER },
	{ "Bno-symbolic", NO_ARG, O_OTHER },
	{ "Bshareable", NO_ARG, O_OTHER },
	{ "Bstatic", NO_ARG, O_STATIC },
	{ "Bsymbolic", NO_ARG, O_OTHER },
	{ "Bsymbolic-functions", NO_ARG, O_OTHER },
	{ "EB", NO_ARG, O_OTHER },
	{ "EL", NO_ARG, O_OTHER },
	{ "Map", REQ_ARG, O_OTHER },
	{ "Qy", NO_ARG, O_OTHER },
	{ "Tbss", REQ_ARG, O_OTHER },
	{ "Tdata", REQ_ARG, O_OTHER },
	{ "Tldata-segment", REQ_ARG, O_OTHER },
	{ "Trodata-segment", REQ_ARG, O_OTHER },
	{ "Ttext", REQ_ARG, O_OTHER },
	{ "Ttext-segment", REQ_ARG, O_OTHER },
	{ "Ur", NO_ARG, O_RELOCATABLE },
	{ "accept-unknown-input-arch", NO_ARG, O_OTHER },
	{ "allow-multiple-definition", NO_ARG, O_OTHER },
	{ "allow-shlib-undefined", NO_ARG, O_OTHER },
	{ "architecture", REQ_ARG, O_OTHER },
	{ "as-needed", NO_ARG, O_OTHER },
	{ "assert", REQ_ARG, O_OTHER },
	{ "audit", REQ_ARG, O_OTHER },
	{ "auxiliary", REQ_ARG, O_OTHER },
	{ "be8", NO_ARG, O_OTHER },
	{ "build-id", OPT_ARG, O_OTHER },
	{ "call_shared", NO_ARG, O_DYNAMIC },
	{ "check-sections", NO_ARG, O_OTHER },
	{ "cmse-implib", NO_ARG, O_OTHER },
	{ "compress-debug-sections", REQ_ARG, O_OTHER },
	{ "copy-dt-needed-entries", NO_ARG, O_OTHER },
	{ "cref", NO_ARG, O_OTHER },
	{ "ctf-share-types", REQ_ARG, O_OTHER },
	{ "ctf-variables", NO_ARG, O_OTHER },
	{ "dT", REQ_ARG, O_OTHER },
	{ "dc", NO_ARG, O_OTHER },
	{ "default-imported-symver", NO_ARG, O_OTHER },
	{ "default-script", REQ_ARG, O_OTHER },
	{ "default-symver", NO_ARG, O_OTHER },
	{ "defsym", REQ_ARG, O_OTHER },
	{ "demangle", OPT_ARG, O_OTHER },
	{ "depaudit", REQ_ARG, O_OTHER },
	{ "dependency-file", REQ_ARG, O_OTHER },
	{ "disable-multiple-abs-defs", NO_ARG, O_OTHER },
	{ "disable-new-dtags", NO_ARG, O_OTHER },
	{ "discard-all", NO_ARG, O_OTHER },
	{ "discard-locals", NO_ARG, O_OTHER },
	{ "discard-none", NO_ARG, O_OTHER },
	{ "dn", NO_ARG, O_STATIC },
	{ "dp", NO_ARG, O_OTHER },
	{ "dy", NO_ARG, O_DYNAMIC },
	{ "dynamic-linker", REQ_ARG, O_OTHER },
	{ "dynamic-list", REQ_ARG, O_OTHER },
	{ "dynamic-list-cpp-new", NO_ARG, O_OTHER },
	{ "dynamic-list-cpp-typeinfo", NO_ARG, O_OTHER },
	{ "dynamic-list-data", NO_ARG, O_OTHER },
	{ "eh-frame-hdr", NO_ARG, O_OTHER },
	{ "embedded-relocs", NO_ARG, O_OTHER },
	{ "emit-relocs", NO_ARG, O_OTHER },
	{ "enable-new-dtags", NO_ARG, O_OTHER },
	{ "enable-non-contiguous-regions", NO_ARG, O_OTHER },
	{ "enable-non-contiguous-regions-warnings", NO_ARG, O_OTHER },
	{ "end-group", NO_ARG, O_OTHER },
	{ "entry", REQ_ARG, O_OTHER },
	{ "error-handling-script", REQ_ARG, O_OTHER },
	{ "error-unresolved-symbols", NO_ARG, O_OTHER },
	{ "exclude-libs", REQ_ARG, O_OTHER },
	{ "export-dynamic", NO_ARG, O_OTHER },
	{ "export-dynamic-symbol", REQ_ARG, O_OTHER },
	{ "export-dynamic-symbol-list", REQ_ARG, O_OTHER },
	{ "fatal-warnings", NO_ARG, O_OTHER },
	{ "filter", REQ_ARG, O_OTHER },
	{ "fini", REQ_ARG, O_OTHER },
	{ "fix-cortex-a8", NO_ARG, O_OTHER },
	{ "fix-stm32l4xx-629360", OPT_ARG, O_OTHER },
	{ "fix-v4bx", NO_ARG, O_OTHER },
	{ "fix-v4bx-interworking", NO_ARG, O_OTHER },
	{ "flto", NO_ARG, O_OTHER },
	{ "flto-partition=", REQ_ARG, O_OTHER },
	{ "force-exe-suffix", NO_ARG, O_OTHER },
	{ "force-group-allocation", NO_ARG, O_OTHER },
	{ "format", REQ_ARG, O_FORMAT },
	{ "fuse-ld=", REQ_ARG, O_OTHER },
	{ "gc-keep-exported", NO_ARG, O_OTHER },
	{ "gc-sections", NO_ARG, O_OTHER },
	{ "gpsize", REQ_ARG, O_OTHER },
	{ "hash-size", REQ_ARG, O_OTHER },
	{ "hash-style", REQ_ARG, O_OTHER },
	{ "help", NO_ARG, O_HELP },
	{ "ignore-unresolved-symbol", REQ_ARG, O_OTHER },
	{ "init", REQ_ARG, O_OTHER },
	{ "just-symbols", REQ_ARG, O_OTHER },
	{ "ld-generated-unwind-info", NO_ARG, O_OTHER },
	{ "library", REQ_ARG, O_LIBRARY },
	{ "library-path", REQ_ARG, O_LIBPATH },
	{ "long-plt", NO_ARG, O_OTHER },
	{ "map-whole-files", NO_ARG, O_OTHER },
	{ "max-cache-size", REQ_ARG, O_OTHER },
	{ "mri-script", REQ_ARG, O_OTHER },
	{ "nmagic", NO_ARG, O_OTHER },
	{ "no-accept-unknown-input-arch", NO_ARG, O_OTHER },
	{ "no-allow-shlib-undefined", NO_ARG, O_OTHER },
	{ "no-apply-dynamic-relocs", NO_ARG, O_OTHER },
	{ "no-as-needed", NO_ARG, O_OTHER },
	{ "no-check-sections", NO_ARG, O_OTHER },
	{ "no-copy-dt-needed-entries", NO_ARG, O_OTHER },
	{ "no-ctf-variables", NO_ARG, O_OTHER },
	{ "no-define-common", NO_ARG, O_OTHER },
	{ "no-demangle", NO_ARG, O_OTHER },
	{ "no-dynamic-linker", NO_ARG, O_OTHER },
	{ "no-eh-frame-hdr", NO_ARG, O_OTHER },
	{ "no-enum-size-warning", NO_ARG, O_OTHER },
	{ "no-export-dynamic", NO_ARG, O_OTHER },
	{ "no-fatal-warnings", NO_ARG, O_OTHER },
	{ "no-gc-sections", NO_ARG, O_OTHER },
	{ "no-keep-memory", NO_ARG, O_OTHER },
	{ "no-ld-generated-unwind-info", NO_ARG, O_OTHER },
	{ "no-map-whole-files", NO_ARG, O_OTHER },
	{ "no-merge-exidx-entries", NO_ARG, O_OTHER },
	{ "no-omagic", NO_ARG, O_OTHER },
	{ "no-pie", NO_ARG, O_OTHER },
	{ "no-print-gc-sections", NO_ARG, O_OTHER },
	{ "no-print-map-discarded", NO_ARG, O_OTHER },
	{ "no-relax", NO_ARG, O_OTHER },
	{ "no-strip-discarded", NO_ARG, O_OTHER },
	{ "no-undefined", NO_ARG, O_OTHER },
	{ "no-undefined-version", NO_ARG, O_OTHER },
	{ "no-warn-execstack", NO_ARG, O_OTHER },
	{ "no-warn-mismatch", NO_ARG, O_OTHER },
	{ "no-warn-rwx-segments", NO_ARG, O_OTHER },
	{ "no-warn-search-mismatch", NO_ARG, O_OTHER },
	{ "no-warnings", NO_ARG, O_OTHER },
	{ "no-wchar-size-warning", NO_ARG, O_OTHER },
	{ "no-whole-archive", NO_ARG, O_NO_WHOLE },
	{ "noinhibit-exec", NO_ARG, O_OTHER },
	{ "non_shared", NO_ARG, O_STATIC },
	{ "nostdlib", NO_ARG, O_NOSTDLIB },
	{ "oformat", REQ_ARG, O_OTHER },
	{ "omagic", NO_ARG, O_OTHER },
	{ "orphan-handling", REQ_ARG, O_OTHER },
	{ "out-implib", REQ_ARG, O_OTHER },
	{ "output", REQ_ARG, O_OUTPUT },
	{ "package-metadata", OPT_ARG, O_OTHER },
	{ "pic-executable", NO_ARG, O_OTHER },
	{ "pic-veneer", NO_ARG, O_OTHER },
	{ "pie", NO_ARG, O_OTHER },
	{ "plugin", REQ_ARG, O_PLUGIN },
	{ "plugin-opt", REQ_ARG, O_OTHER },
	{ "pop-state", NO_ARG, O_POP_STATE },
	{ "print-gc-sections", NO_ARG, O_OTHER },
	{ "print-map", NO_ARG, O_OTHER },
	{ "print-map-discarded", NO_ARG, O_OTHER },
	{ "print-memory-usage", NO_ARG, O_OTHER },
	{ "print-output-format", NO_ARG, O_OTHER },
	{ "print-sysroot", NO_ARG, O_OTHER },
	{ "push-state", NO_ARG, O_PUSH_STATE },
	{ "qmagic", NO_ARG, O_OTHER },
	{ "reduce-memory-overheads", NO_ARG, O_OTHER },
	{ "relax", NO_ARG, O_OTHER },
	{ "relocatable", NO_ARG, O_RELOCATABLE },
	{ "require-defined", REQ_ARG, O_OTHER },
	{ "retain-symbols-file", REQ_ARG, O_OTHER },
	{ "rpath", REQ_ARG, O_OTHER },
	{ "rpath-link", REQ_ARG, O_OTHER },
	{ "script", REQ_ARG, O_OTHER },
	{ "section-start", REQ_ARG, O_OTHER },
	{ "shared", NO_ARG, O_OTHER },
	{ "soname", REQ_ARG, O_OTHER },
	{ "sort-common", OPT_ARG, O_OTHER },
	{ "sort-section", REQ_ARG, O_OTHER },
	{ "spare-dynamic-tags", REQ_ARG, O_OTHER },
	{ "split-by-file", OPT_ARG, O_OTHER },
	{ "split-by-reloc", OPT_ARG, O_OTHER },
	{ "start-group", NO_ARG, O_OTHER },
	{ "static", NO_ARG, O_STATIC },
	{ "stats", NO_ARG, O_OTHER },
	{ "strip-all", NO_ARG, O_OTHER },
	{ "strip-debug", NO_ARG, O_OTHER },
	{ "strip-discarded", NO_ARG, O_OTHER },
	{ "stub-group-size", REQ_ARG, O_OTHER },
	{ "sysroot", REQ_ARG, O_SYSROOT },
	{ "target-help", NO_ARG, O_OTHER },
	{ "target1-abs", NO_ARG, O_OTHER },
	{ "target1-rel", NO_ARG, O_OTHER },
	{ "target2", REQ_ARG, O_OTHER },
	{ "task-link", REQ_ARG, O_OTHER },
	{ "thumb-entry", REQ_ARG, O_OTHER },
	{ "trace", NO_ARG, O_OTHER },
	{ "trace-symbol", REQ_ARG, O_OTHER },
	{ "traditional-format", NO_ARG, O_OTHER },
	{ "undefined", REQ_ARG, O_OTHER },
	{ "undefined-version", NO_ARG, O_OTHER },
	{ "unique", OPT_ARG, O_OTHER },
	{ "unresolved-symbols", REQ_ARG, O_OTHER },
	{ "use-blx", NO_ARG, O_OTHER },
	{ "verbose", OPT_ARG, O_OTHER },
	{ "version", NO_ARG, O_VERSION },
	{ "version-exports-section", REQ_ARG, O_OTHER },
	{ "version-script", REQ_ARG, O_OTHER },
	{ "vfp11-denorm-fix", REQ_ARG, O_OTHER },
	{ "warn-alternate-em", NO_ARG, O_OTHER },
	{ "warn-common", NO_ARG, O_OTHER },
	{ "warn-constructors", NO_ARG, O_OTHER },
	{ "warn-execstack", NO_ARG, O_OTHER },
	{ "warn-multiple-gp", NO_ARG, O_OTHER },
	{ "warn-once", NO_ARG, O_OTHER },
	{ "warn-rwx-segments", NO_ARG, O_OTHER },
	{ "warn-section-align", NO_ARG, O_OTHER },
	{ "warn-textrel", NO_ARG, O_OTHER },
	{ "warn-unresolved-symbols", NO_ARG, O_OTHER },
	{ "whole-archive", NO_ARG, O_WHOLE },
	{ "wrap", REQ_ARG, O_OTHER },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- response files ---- */

void ld_split_response(const char *text, struct strvec *out)
{
	const char *p = text;
	size_t cap = strlen(text) + 1;
	char *arg = xmalloc(cap);

	for (;;) {
		size_t len = 0;
		bool squote = false, dquote = false, bsquote = false;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		       *p == '\f' || *p == '\v')
			p++;
		if (!*p)
			break;
		for (; *p; p++) {
			char c = *p;

			if (!squote && !dquote && !bsquote &&
			    (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
			     c == '\f' || c == '\v'))
				break;
			if (bsquote) {
				bsquote = false;
				arg[len++] = c;
			} else if (c == '\\') {
				bsquote = true;
			} else if (squote) {
				if (c == '\'')
					squote = false;
				else
					arg[len++] = c;
			} else if (dquote) {
				if (c == '"')
					dquote = false;
				else
					arg[len++] = c;
			} else if (c == '\'') {
				squote = true;
			} else if (c == '"') {
				dquote = true;
			} else {
				arg[len++] = c;
			}
		}
		strvec_push_nodup(out, xstrndup(arg, len));
	}
	free(arg);
}

/* Bounds on @file expansion: depth, and total @files read (ld's own limit). */
struct expansion {
	struct strvec *out;
	int files_read;
};

static int expand(struct expansion *ex, int argc, char *const *argv,
		  int depth, const char *parent)
{
	for (int i = 0; i < argc; i++) {
		struct strvec inner = STRVEC_INIT;
		const char *path = argv[i] + 1;
		size_t len;
		char *text;
		int rc;

		if (argv[i][0] != '@') {
			strvec_push(ex->out, argv[i]);
			continue;
		}
		text = read_file(path, &len);
		if (!text) {
			/* As libiberty: an unreadable @file is an ordinary argument. */
			strvec_push(ex->out, argv[i]);
			continue;
		}
		rc = 0;
		if (depth >= RESPONSE_FILE_MAX_DEPTH)
			rc = error("%s: response file nesting deeper than %d "
				   "(included from %s; recursive @file?)",
				   path, RESPONSE_FILE_MAX_DEPTH, parent);
		else if (++ex->files_read > RESPONSE_FILE_MAX_COUNT)
			rc = error("%s: too many @-files encountered (%d in "
				   "one command line, which ld refuses too; "
				   "included from %s)", path,
				   RESPONSE_FILE_MAX_COUNT + 1, parent);
		else
			/* libiberty would stop at it: refuse rather than drop the rest */
			rc = check_no_nul(path, text, len, "response file");
		if (!rc)
			ld_split_response(text, &inner);
		free(text);
		if (!rc && inner.n)
			rc = expand(ex, (int)inner.n, inner.v, depth + 1, path);
		strvec_clear(&inner);
		if (rc)
			return rc;
	}
	return 0;
}

int ld_expand_args(int argc, char *const *argv, struct strvec *out)
{
	struct expansion ex = { out, 0 };

	return expand(&ex, argc, argv, 0, "the command line");
}

/* ---- option lookup ---- */

static const struct opt *find_short(char c)
{
	for (size_t i = 0; i < COUNT(short_opts); i++)
		if (short_opts[i].name[0] == c)
			return &short_opts[i];
	return NULL;
}

/* getopt's rule: an exact match, else a unique prefix; NULL otherwise. */
static const struct opt *find_long(const char *name, size_t len)
{
	const struct opt *found = NULL;

	for (size_t i = 0; i < COUNT(long_opts); i++) {
		const char *n = long_opts[i].name;

		if (strncmp(n, name, len) != 0)
			continue;
		if (strlen(n) == len)
			return &long_opts[i];
		if (found)
			return NULL;	/* ambiguous prefix */
		found = &long_opts[i];
	}
	return found;
}

/* ---- parsing ---- */

struct link_state {
	bool whole_archive;
	bool is_static;
	bool raw;
};

#define STATE_STACK_MAX 64

struct parser {
	struct ld_cmdline *cmd;
	struct link_state state;
	struct link_state stack[STATE_STACK_MAX];
	int depth;
	size_t inputs_alloc;
};

static void add_input(struct parser *ps, size_t arg, const char *name,
		      bool is_library)
{
	struct ld_cmdline *cmd = ps->cmd;
	struct ld_input *in;

	ALLOC_GROW(cmd->inputs, cmd->ninputs, ps->inputs_alloc);
	in = &cmd->inputs[cmd->ninputs++];
	memset(in, 0, sizeof(*in));
	in->arg = arg;
	in->name = name;
	in->is_library = is_library;
	in->path = is_library ? NULL : xstrdup(name);
	in->whole_archive = ps->state.whole_archive;
	in->dynamic = !ps->state.is_static;
	in->raw = ps->state.raw;
	cmd->roles[arg] = ROLE_INPUT;
}

/* Formats lto-ld reads as ELF; anything else (binary, ihex, srec...) is data. */
static bool format_is_elf(const char *fmt)
{
	return !strcmp(fmt, "default") || starts_with(fmt, "elf");
}

/* Apply one recognised option; VALUE is its argument (or NULL). */
static void apply(struct parser *ps, const struct opt *o, const char *value,
		  size_t arg, size_t value_arg)
{
	struct ld_cmdline *cmd = ps->cmd;

	switch (o->id) {
	case O_OUTPUT:
		cmd->output = value;
		cmd->roles[arg] = ROLE_OUTPUT;
		cmd->roles[value_arg] = ROLE_OUTPUT;
		break;
	case O_RELOCATABLE:
		cmd->relocatable = true;
		break;
	case O_LIBRARY:
		/* The -l option is the input; its separate argument goes with it. */
		add_input(ps, arg, value, true);
		if (value_arg != arg)
			cmd->roles[value_arg] = ROLE_INPUT;
		break;
	case O_LIBPATH:
		strvec_push(&cmd->libdirs, value);
		break;
	case O_WHOLE:
		ps->state.whole_archive = true;
		break;
	case O_NO_WHOLE:
		ps->state.whole_archive = false;
		break;
	case O_PUSH_STATE:
		if (ps->depth < STATE_STACK_MAX)
			ps->stack[ps->depth] = ps->state;
		ps->depth++;
		break;
	case O_POP_STATE:
		if (ps->depth > 0 && --ps->depth < STATE_STACK_MAX)
			ps->state = ps->stack[ps->depth];
		break;
	case O_STATIC:
		ps->state.is_static = true;
		break;
	case O_DYNAMIC:
		ps->state.is_static = false;
		break;
	case O_FORMAT:
		ps->state.raw = !format_is_elf(value);
		break;
	case O_SYSROOT:
		cmd->sysroot = value;
		break;
	case O_NOSTDLIB:
		cmd->nostdlib = true;
		break;
	case O_PLUGIN:
		cmd->caller_plugin = true;
		break;
	case O_VERSION:
		cmd->version = true;
		break;
	case O_HELP:
		cmd->help = true;
		break;
	case O_EMULATION:
		cmd->emulation = value;
		break;
	case O_VERBOSE_VERSION:
	case O_END_OF_OPTIONS:
	case O_OTHER:
		break;
	}
}

char *partial_mode_parse(const char *source, const char *text,
			 enum partial_mode *mode)
{
	if (!strcmp(text, "thin"))
		*mode = PARTIAL_THIN;
	else if (!strcmp(text, "native"))
		*mode = PARTIAL_NATIVE;
	else if (!strcmp(text, "ir"))
		*mode = PARTIAL_IR;
	else if (!strcmp(text, "fat"))
		*mode = PARTIAL_FAT;
	else
		return xasprintf("%s='%s': unknown partial-link mode "
				 "(expected fat, thin, native or ir)", source, text);
	return NULL;
}

const char *partial_mode_name(enum partial_mode mode)
{
	switch (mode) {
	case PARTIAL_THIN:
		return "thin";
	case PARTIAL_NATIVE:
		return "native";
	case PARTIAL_IR:
		return "ir";
	case PARTIAL_FAT:
		return "fat";
	case PARTIAL_UNSET:
		break;
	}
	return "unset";
}

/* --lto-partial=TEXT: 0, or 1 after an error naming the option. */
static int partial_option(struct ld_cmdline *cmd, const char *text)
{
	char *why = partial_mode_parse("--lto-partial", text, &cmd->partial);

	if (!why)
		return 0;
	error("%s", why);
	free(why);
	return 1;
}

/*
 * lto-ld's own options: --lto-partial=MODE (or --lto-partial MODE),
 * --lto-flags=FLAGS, --lto-whole-program, --lto-keep=FILE,
 * --lto-keep-symbol=GLOB, --lto-report=FILE (or --lto-report FILE),
 * --lto-exports=FILE, --lto-cache=DIR, --lto-final-weak,
 * --print-cc-plugin and -save-temps.  Returns how many arguments were consumed (0: not ours),
 * or -1 on error.
 */
static int own_option(struct ld_cmdline *cmd, char *const *args, size_t n,
		      size_t i)
{
	const char *a = args[i];

	if (!strcmp(a, "-save-temps") || !strcmp(a, "--save-temps")) {
		cmd->save_temps = true;
		return 1;
	}
	if (starts_with(a, "--lto-partial=") || starts_with(a, "-lto-partial="))
		return partial_option(cmd, strchr(a, '=') + 1) ? -1 : 1;
	if (!strcmp(a, "--lto-partial") || !strcmp(a, "-lto-partial")) {
		if (i + 1 >= n)
			return error("%s: missing argument", a), -1;
		return partial_option(cmd, args[i + 1]) ? -1 : 2;
	}
	if (!strcmp(a, "--print-cc-plugin")) {
		cmd->print_cc_plugin = true;
		return 1;
	}
	if (!strcmp(a, "--lto-whole-program")) {
		cmd->whole_program = true;
		return 1;
	}
	if (!strcmp(a, "--lto-final-weak")) {
		cmd->final_weak = true;
		return 1;
	}
	if (starts_with(a, "--lto-keep=") && a[11]) {
		strvec_push(&cmd->keep_files, a + 11);
		return 1;
	}
	if (starts_with(a, "--lto-keep-symbol=") && a[18]) {
		strvec_push(&cmd->keep_symbols, a + 18);
		return 1;
	}
	if (starts_with(a, "--lto-report=") && a[13]) {
		free(cmd->report);	/* the last one given */
		cmd->report = xstrdup(a + 13);
		return 1;
	}
	if (!strcmp(a, "--lto-report")) {
		if (i + 1 >= n || !*args[i + 1])
			return error("%s: missing argument", a), -1;
		free(cmd->report);
		cmd->report = xstrdup(args[i + 1]);
		return 2;
	}
	if (starts_with(a, "--lto-exports=") && a[14]) {
		free(cmd->exports);	/* the last one given */
		cmd->exports = xstrdup(a + 14);
		return 1;
	}
	if (starts_with(a, "--lto-cache=") && a[12]) {
		free(cmd->cache);	/* the last one given */
		cmd->cache = xstrdup(a + 12);
		return 1;
	}
	if (starts_with(a, "--lto-flags=")) {
		ld_split_response(a + strlen("--lto-flags="), &cmd->lto_flags);
		return 1;
	}
	if (starts_with(a, "--lto-"))
		return error("unknown lto-ld option '%s'", a), -1;
	return 0;
}

/* Drop lto-ld's own options from the expanded argument list. */
static int strip_own_options(struct ld_cmdline *cmd, struct strvec *all)
{
	for (size_t i = 0; i < all->n;) {
		int used;

		if (!strcmp(all->v[i], "--")) {
			/* ld reads nothing after it: neither does lto-ld */
			for (; i < all->n; i++)
				strvec_push(&cmd->args, all->v[i]);
			break;
		}
		used = own_option(cmd, all->v, all->n, i);

		if (used < 0)
			return 1;
		if (used > 0)
			cmd->had_own_options = true;
		if (used == 0) {
			strvec_push(&cmd->args, all->v[i]);
			i++;
		} else {
			i += (size_t)used;
		}
	}
	return 0;
}

/* Handle a long option (NAME without dashes) at args[i]; returns args used. */
static size_t parse_long(struct parser *ps, const struct opt *o,
			 const char *eq, size_t i)
{
	struct ld_cmdline *cmd = ps->cmd;

	if (o->has_arg == NO_ARG) {
		apply(ps, o, NULL, i, i);
		return 1;
	}
	if (eq) {
		apply(ps, o, eq + 1, i, i);
		return 1;
	}
	if (o->has_arg == OPT_ARG) {
		apply(ps, o, NULL, i, i);
		return 1;
	}
	if (i + 1 >= cmd->args.n) {
		cmd->missing_argument = cmd->args.v[i];	/* ld will say so */
		return 1;
	}
	cmd->roles[i + 1] = ROLE_VALUE;
	apply(ps, o, cmd->args.v[i + 1], i, i + 1);
	return 2;
}

/* A short option at args[i] ("-x", "-xARG"); returns args used. */
static size_t parse_short(struct parser *ps, const struct opt *o, size_t i)
{
	struct ld_cmdline *cmd = ps->cmd;
	const char *a = cmd->args.v[i];

	if (o->has_arg == NO_ARG) {
		if (o->id == O_VERBOSE_VERSION || a[2] == '\0')
			apply(ps, o, NULL, i, i);
		return 1;
	}
	if (a[2] != '\0') {
		apply(ps, o, a + 2, i, i);
		return 1;
	}
	if (i + 1 >= cmd->args.n) {
		cmd->missing_argument = a;
		return 1;
	}
	cmd->roles[i + 1] = ROLE_VALUE;
	apply(ps, o, cmd->args.v[i + 1], i, i + 1);
	return 2;
}

/* An empty command line: every list a valid empty array. */
static void cmdline_init(struct ld_cmdline *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	strvec_init(&cmd->args);
	strvec_init(&cmd->libdirs);
	strvec_init(&cmd->lto_flags);
	strvec_init(&cmd->keep_files);
	strvec_init(&cmd->keep_symbols);
}

int ld_parse(int argc, char *const *argv, struct ld_cmdline *cmd)
{
	struct strvec all = STRVEC_INIT;
	struct parser ps;
	bool verbose_version = false;
	int rc;

	cmdline_init(cmd);
	memset(&ps, 0, sizeof(ps));
	ps.cmd = cmd;
	rc = ld_expand_args(argc - 1, argv + 1, &all);
	if (!rc)
		rc = strip_own_options(cmd, &all);
	strvec_clear(&all);
	if (rc) {
		ld_cmdline_free(cmd);
		return rc;
	}
	cmd->roles = xcalloc(cmd->args.n + 1, sizeof(*cmd->roles));
	cmd->output = "a.out";

	for (size_t i = 0; i < cmd->args.n;) {
		const char *a = cmd->args.v[i];
		const struct opt *o = NULL;

		if (a[0] != '-' || a[1] == '\0') {
			add_input(&ps, i, a, false);
			i++;
			continue;
		}
		if (!strcmp(a, "--")) {
			/* getopt stops here and ld reads no more arguments */
			for (; i < cmd->args.n; i++)
				cmd->roles[i] = ROLE_IGNORED;
			break;
		}
		if (a[1] == '-' || a[2] != '\0' || !find_short(a[1])) {
			const char *name = a + (a[1] == '-' ? 2 : 1);
			const char *eq = strchr(name, '=');

			o = find_long(name, eq ? (size_t)(eq - name)
					       : strlen(name));
			if (o) {
				i += parse_long(&ps, o, eq, i);
				continue;
			}
			if (a[1] == '-') {
				i++;	/* unknown: passed on for ld to judge */
				continue;
			}
		}
		o = find_short(a[1]);
		if (!o) {
			i++;
			continue;
		}
		if (o->id == O_VERBOSE_VERSION)
			verbose_version = true;
		i += parse_short(&ps, o, i);
	}
	if (verbose_version && cmd->ninputs == 0)
		cmd->version = true;
	return 0;
}

/* ---- -l resolution ---- */

/* Try DIR/NAME (below SYSROOT when DIR starts with '='). */
static char *try_lib(const char *sysroot, const char *dir, const char *name)
{
	char *path;

	if (dir[0] == '=' || starts_with(dir, "$SYSROOT"))
		path = xasprintf("%s%s/%s", sysroot ? sysroot : "",
				 dir + (dir[0] == '=' ? 1 : 8), name);
	else
		path = xasprintf("%s/%s", dir, name);
	if (is_regular_file(path))
		return path;
	free(path);
	return NULL;
}

static char *find_in_dirs(const struct ld_cmdline *cmd, char *const *dirs,
			  const struct ld_input *in)
{
	const char *lib = in->name;
	char *found = NULL;

	for (; dirs && *dirs && !found; dirs++) {
		if (lib[0] == ':') {
			found = try_lib(cmd->sysroot, *dirs, lib + 1);
			continue;
		}
		if (in->dynamic) {
			char *so = xasprintf("lib%s.so", lib);

			found = try_lib(cmd->sysroot, *dirs, so);
			free(so);
		}
		if (!found) {
			char *a = xasprintf("lib%s.a", lib);

			found = try_lib(cmd->sysroot, *dirs, a);
			free(a);
		}
	}
	return found;
}

void ld_resolve_libraries(struct ld_cmdline *cmd, char *const *default_dirs)
{
	for (size_t i = 0; i < cmd->ninputs; i++) {
		struct ld_input *in = &cmd->inputs[i];

		if (!in->is_library || in->path)
			continue;
		in->path = find_in_dirs(cmd, cmd->libdirs.v, in);
		if (!in->path && !cmd->nostdlib)
			in->path = find_in_dirs(cmd, default_dirs, in);
	}
}

bool ld_has_unresolved_libraries(const struct ld_cmdline *cmd)
{
	for (size_t i = 0; i < cmd->ninputs; i++)
		if (cmd->inputs[i].is_library && !cmd->inputs[i].path)
			return true;
	return false;
}

void ld_cmdline_free(struct ld_cmdline *cmd)
{
	for (size_t i = 0; i < cmd->ninputs; i++)
		free(cmd->inputs[i].path);
	free(cmd->inputs);
	free(cmd->roles);
	strvec_clear(&cmd->args);
	strvec_clear(&cmd->libdirs);
	strvec_clear(&cmd->lto_flags);
	strvec_clear(&cmd->keep_files);
	strvec_clear(&cmd->keep_symbols);
	free(cmd->exports);
	free(cmd->report);
	free(cmd->cache);
	cmdline_init(cmd);
}
