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
 *   lto-ld:final-weak        with whole-program: weak definitions are
 *                            internalized too (no later link overrides them)
 *   lto-ld:keep=GLOB         keep matching names (fnmatch); repeatable
 *   lto-ld:keep-file=FILE    keep the names or globs in FILE, one a line
 *   lto-ld:exports=FILE      of the exports other units name (the
 *                            object's .lto_ld.exports), keep only those
 *                            FILE names, one a line ('#' comments)
 *   lto-ld:symbols=FILE      list every IR symbol of every claimed file with
 *                            the linker's resolution, the one GCC got and
 *                            why: lto-ld's one side file, for --lto-report
 *                            and the check of what was made internal; see
 *                            below
 *
 * The symbols list has one line per claimed file, in the order GCC asks
 * for their resolutions, each followed by one line per symbol of its IR
 * symbol table; fields are separated by tabs, and a backslash, tab or
 * newline inside a field is written \\, \t, \n:
 *
 *   file INPUT OFFSET
 *   sym NAME KIND LINKER_RES RES WHY KEEP_GLOB KEEP_FILE KEEP_LINE COMDAT
 *
 * and, for each ELF object GCC's plugin left to the linker (native code:
 * assembler, objects compiled without -flto), when the linker offers it:
 *
 *   native INPUT OFFSET
 *   def NAME
 *
 * one "def" line per symbol it defines, statics included.
 *
 * KIND is def, weakdef, undef, weakundef or common; LINKER_RES and RES
 * the resolution names without LDPR_ (RES differs when the policy made
 * the definition internal); WHY is empty, or what the whole-program
 * policy did: internalized, keep (KEEP_* name the entry: its glob, and
 * its keep file and line or nothing), weak, compiler, asm (named in
 * another unit's asm text: lto-ld-asm-names.so lists those in the
 * object's section .lto_ld.asm_names), export (named by another unit's
 * export entry: .lto_ld.exports, and kept by lto-ld:exports if given);
 * COMDAT is 1 for a
 * symbol of a comdat group.
 *
 * All other -plugin-opt options are GCC's and reach it unchanged.  With no
 * policy option the plugin only forwards: the link is GCC's (the symbols
 * list changes no resolution).  With one, GCC's claim-file handlers (both
 * versions) and all-symbols-read handler are called through this plugin's,
 * and a transfer vector entry it does not know is refused.
 *
 * Keep entries that match no IR symbol of the link are reported as
 * warnings once the linker has read every symbol (after GCC's
 * all_symbols_read handler, whose get_symbols calls this plugin sees).
 *
 * Read top to bottom: messages, the keep set, the claimed files, the
 * interposed get_symbols with the symbols list, the interposed hooks,
 * onload.
 */
#include <stdint.h>	/* plugin-api.h needs it first */
#include <plugin-api.h>

#include "elf.h"
#include "namelist.h"

#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OPT_PREFIX "lto-ld:"

/*
 * binutils 2.41 added a second claim-file hook, whose handler is also told
 * whether the linker knows the file is used; GCC 13 registers it beside
 * the first, and ld then calls only it.  For older headers: its tag and
 * types as binutils defines them.
 */
#if !HAVE_DECL_LDPT_REGISTER_CLAIM_FILE_HOOK_V2
#define LDPT_REGISTER_CLAIM_FILE_HOOK_V2 35
typedef enum ld_plugin_status (*ld_plugin_claim_file_handler_v2)(
	const struct ld_plugin_input_file *file, int *claimed, bool known_used);
typedef enum ld_plugin_status (*ld_plugin_register_claim_file_v2)(
	ld_plugin_claim_file_handler_v2 handler);
#endif
/* Every tag up to it is known (see known_tag). */
#define LAST_KNOWN_TAG LDPT_REGISTER_CLAIM_FILE_HOOK_V2

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

/* One name or glob of the keep set, and where it was given. */
struct keep_entry {
	char *glob;
	char *file;		/* the keep file, or NULL: --lto-keep-symbol */
	unsigned line;
	bool literal;		/* no glob characters: looked up by name */
	bool matched;		/* some IR symbol of the link matched it */
};

/* A set of names: added in any order, sorted when first looked up. */
struct name_set {
	char **v;
	size_t n;
	bool sorted;
};

/* An input GCC's plugin claimed, as the linker named it. */
struct claimed_file {
	const void *handle;
	char *name;		/* the file, or the archive of a member */
	unsigned long long offset;	/* the member's offset in it, or 0 */
	bool listed;		/* its symbols are in the symbols list */
};

static struct {
	ld_plugin_message message;
	ld_plugin_get_symbols get_symbols;	/* the linker's v1 */
	ld_plugin_get_symbols get_symbols_v2;
	ld_plugin_get_symbols get_symbols_v3;
	ld_plugin_register_claim_file register_claim_file;
	ld_plugin_register_claim_file_v2 register_claim_file_v2;
	ld_plugin_register_all_symbols_read register_all_symbols_read;
	ld_plugin_claim_file_handler gcc_claim_file;
	ld_plugin_claim_file_handler_v2 gcc_claim_file_v2;
	ld_plugin_all_symbols_read_handler gcc_all_symbols_read;
	enum ld_plugin_output_file_type output_type;
	bool whole_program;
	bool final_weak;	/* lto-ld:final-weak */
	struct keep_entry *keep;
	size_t nkeep;
	size_t *literals;	/* indices of literal entries, sorted by name */
	size_t nliterals;
	size_t *globs;		/* indices of the other entries */
	size_t nglobs;
	struct claimed_file *files;
	size_t nfiles, last_file;
	struct name_set asm_names;	/* the claimed files' .lto_ld.asm_names */
	struct name_set export_names;	/* ... and .lto_ld.exports */
	struct name_set kept_exports;	/* lto-ld:exports=FILE */
	bool exports_policy;		/* lto-ld:exports was given */
	char *symbols_path;
	FILE *symbols;
	bool reported;
	/* what the whole-program policy did: made an IR definition internal, kept one */
	bool internalized_any, kept_any;
} self;

/* ---- messages ---- */

/* Through the linker, so it reads like ld's own messages; else stderr. */
__attribute__((format(printf, 2, 3)))
static void report(int level, const char *fmt, ...)
{
	static const char *const kind[] = { "", "warning: ", "error: ", "error: " };
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (self.message)
		self.message(level, "lto-ld-plugin: %s", buf);
	else
		fprintf(stderr, "lto-ld-plugin: %s%s\n",
			level >= LDPL_INFO && level <= LDPL_FATAL ? kind[level] : "",
			buf);
}

/* ---- the keep set ---- */

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, (n ? n : 1) * size);
	if (!p)
		abort();
	return p;
}

static char *copy_of(const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		abort();
	return copy;
}

static void keep_add(const char *glob, const char *file, unsigned line)
{
	struct keep_entry *e;

	self.keep = grow(self.keep, self.nkeep + 1, sizeof(*self.keep));
	e = &self.keep[self.nkeep++];
	e->glob = copy_of(glob);
	e->file = file ? copy_of(file) : NULL;
	e->line = line;
	e->literal = !strpbrk(glob, "*?[\\");
	e->matched = false;
}

/* A name list's entry: its name, file and line, to the list's own ADD. */
struct name_lines {
	const char *path;
	void (*add)(const char *, const char *, unsigned);
};

static void name_line(const char *name, unsigned line, void *ctx)
{
	const struct name_lines *lines = ctx;

	lines->add(name, lines->path, line);
}

/*
 * Each name of the list PATH (WHAT it is, for messages), in the format
 * of lib/namelist.h, to ADD with PATH and its line.  0, or -1 after a
 * fatal message naming PATH (and the line of a NUL byte).
 */
static int read_name_lines(const char *path, const char *what,
			   void (*add)(const char *, const char *, unsigned))
{
	struct name_lines lines = { path, add };
	FILE *f = fopen(path, "r");
	long rc;

	if (!f) {
		report(LDPL_FATAL, "%s: cannot read the %s", path, what);
		return -1;
	}
	rc = namelist_read(f, name_line, &lines);
	fclose(f);
	if (rc > 0)
		report(LDPL_FATAL, "%s:%ld: NUL byte in the %s", path, rc, what);
	else if (rc < 0)
		report(LDPL_FATAL, "%s: cannot read the %s", path, what);
	return rc ? -1 : 0;
}

static int keep_file(const char *path)
{
	return read_name_lines(path, "keep file", keep_add);
}

static int by_literal(const void *a, const void *b)
{
	return strcmp(self.keep[*(const size_t *)a].glob,
		      self.keep[*(const size_t *)b].glob);
}

/* Once every option is read: literals sorted for lookup, globs apart. */
static void keep_index(void)
{
	self.literals = grow(NULL, self.nkeep, sizeof(size_t));
	self.globs = grow(NULL, self.nkeep, sizeof(size_t));
	for (size_t i = 0; i < self.nkeep; i++) {
		if (self.keep[i].literal)
			self.literals[self.nliterals++] = i;
		else
			self.globs[self.nglobs++] = i;
	}
	qsort(self.literals, self.nliterals, sizeof(size_t), by_literal);
}

/*
 * Does the keep set hold NAME?  The first entry that matches, or NULL.
 * Every entry that matches is marked, so that the ones no IR symbol
 * matched can be reported.  With !ANSWER only the marks matter: globs
 * already matched are not tried again.
 */
static const struct keep_entry *keep_match(const char *name, bool answer)
{
	const struct keep_entry *first = NULL;
	size_t lo = 0, hi = self.nliterals;
	bool hit = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(self.keep[self.literals[mid]].glob, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < self.nliterals && !strcmp(self.keep[self.literals[lo]].glob, name); lo++) {
		if (!first)
			first = &self.keep[self.literals[lo]];
		self.keep[self.literals[lo]].matched = hit = true;
	}
	for (size_t i = 0; i < self.nglobs; i++) {
		struct keep_entry *e = &self.keep[self.globs[i]];

		if (e->matched && (hit || !answer))
			continue;
		if (!fnmatch(e->glob, name, 0)) {
			if (!first)
				first = e;
			e->matched = hit = true;
		}
	}
	return first;
}

static bool compiler_name(const char *name)
{
	for (size_t i = 0; i < sizeof(compiler_names) / sizeof(compiler_names[0]); i++)
		if (!fnmatch(compiler_names[i], name, 0))
			return true;
	return false;
}

/*
 * Once, when every symbol is read: the keep entries nothing matched, and
 * a whole-program ld -r that kept nothing.  Whole-program keeps what
 * native code, the entry (-e) or -u refer to, the keep set, asm and
 * export names, the compiler's own; with none of these, every IR
 * definition became internal and was dropped: an empty object, which
 * is never what was meant.
 */
static void report_after_symbols(void)
{
	if (self.reported)
		return;
	self.reported = true;
	if (self.internalized_any && !self.kept_any)
		report(LDPL_WARNING, "--lto-whole-program: nothing was kept: "
		       "no IR definition is referred to from outside the IR "
		       "or named to keep, so all were made internal, and the "
		       "output defines none; name what to keep with "
		       "--lto-keep=FILE, --lto-keep-symbol=GLOB, -e SYMBOL "
		       "(--entry) or -u SYMBOL");
	for (size_t i = 0; i < self.nkeep; i++) {
		const struct keep_entry *e = &self.keep[i];

		if (e->matched)
			continue;
		if (e->file)
			report(LDPL_WARNING, "%s:%u: '%s' matches no IR symbol "
			       "of this link", e->file, e->line, e->glob);
		else
			report(LDPL_WARNING, "--lto-keep-symbol: '%s' matches "
			       "no IR symbol of this link", e->glob);
	}
}

/* ---- names asm text in other units uses (lto-ld-asm-names.so) ---- */

static void name_add(struct name_set *set, const char *name)
{
	set->v = grow(set->v, set->n + 1, sizeof(*set->v));
	set->v[set->n++] = copy_of(name);
	set->sorted = false;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool name_in(struct name_set *set, const char *name)
{
	if (!set->sorted) {
		qsort(set->v, set->n, sizeof(*set->v), by_string);
		set->sorted = true;
	}
	return set->n && bsearch(&name, set->v, set->n, sizeof(*set->v), by_string);
}

/*
 * The names in section SECTION of FILE join SET.  A file that is not
 * ELF, has no such section or a corrupt one adds none: GCC's plugin,
 * which claimed it, says what is wrong with it.
 */
static void read_names(const struct ld_plugin_input_file *file,
		       const char *section, struct name_set *set)
{
	struct elf_in in = { file->fd, file->offset, (uint64_t)file->filesize,
			     NULL, 0 };
	struct elf e;
	size_t len = 0;
	char *data = NULL;

	if (elf_open(&e, &in) > 0 && elf_read_sections(&e) == 0)
		data = elf_load_section(&e, section, &len);
	elf_close(&e);
	for (size_t at = 0; data && at < len; at += strlen(data + at) + 1)
		if (data[at])
			name_add(set, data + at);
	free(data);
}

static void kept_export_add(const char *name, const char *path, unsigned line)
{
	(void)path;
	(void)line;
	name_add(&self.kept_exports, name);
}

/* lto-ld:exports=FILE: the exports to keep, one name a line. */
static int exports_file(const char *path)
{
	self.exports_policy = true;
	return read_name_lines(path, "list of exports", kept_export_add);
}

/* Another unit's export entry names NAME, and the export stays. */
static bool export_kept(const char *name)
{
	return name_in(&self.export_names, name) &&
	       (!self.exports_policy || name_in(&self.kept_exports, name));
}

/* ---- the files GCC's plugin claimed, by handle ---- */

static void list_native(const struct ld_plugin_input_file *file);

/*
 * After GCC's claim_file handler (either version): a claimed file is
 * noted, one it left to the linker (native code) listed.
 */
static enum ld_plugin_status after_claim(enum ld_plugin_status st,
					 const struct ld_plugin_input_file *file,
					 const int *claimed)
{
	struct claimed_file *c;

	if (st == LDPS_OK && !*claimed && self.symbols)
		list_native(file);
	if (st != LDPS_OK || !*claimed)
		return st;
	self.files = grow(self.files, self.nfiles + 1, sizeof(*self.files));
	c = &self.files[self.nfiles++];
	c->handle = file->handle;
	c->name = copy_of(file->name);
	c->offset = (unsigned long long)file->offset;
	c->listed = false;
	if (self.whole_program && self.output_type == LDPO_REL) {
		read_names(file, ".lto_ld.asm_names", &self.asm_names);
		read_names(file, ".lto_ld.exports", &self.export_names);
	}
	return st;
}

static enum ld_plugin_status claim_file(const struct ld_plugin_input_file *file,
					int *claimed)
{
	return after_claim(self.gcc_claim_file(file, claimed), file, claimed);
}

static enum ld_plugin_status claim_file_v2(const struct ld_plugin_input_file *file,
					   int *claimed, bool known_used)
{
	return after_claim(self.gcc_claim_file_v2(file, claimed, known_used),
			   file, claimed);
}

/* get_symbols comes in claim order: look from the last one found. */
static struct claimed_file *claimed_file(const void *handle)
{
	for (size_t n = 0; n < self.nfiles; n++) {
		size_t i = (self.last_file + n) % self.nfiles;

		if (self.files[i].handle == handle) {
			self.last_file = i;
			return &self.files[i];
		}
	}
	return NULL;
}

/* ---- get_symbols: the linker's resolutions, with the policy applied ---- */

/* The symbols list (for lto-ld's --lto-report). */

/* One field: a tab first unless it is the line's first, then escaped. */
static void list_field(const char *text, bool first)
{
	if (!first)
		putc('\t', self.symbols);
	for (const char *p = text ? text : ""; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", self.symbols);
		else if (*p == '\t')
			fputs("\\t", self.symbols);
		else if (*p == '\n')
			fputs("\\n", self.symbols);
		else
			putc(*p, self.symbols);
	}
}

static const char *resolution_name(int res)
{
	static const char *const names[] = {
		"UNKNOWN", "UNDEF", "PREVAILING_DEF", "PREVAILING_DEF_IRONLY",
		"PREEMPTED_REG", "PREEMPTED_IR", "RESOLVED_IR", "RESOLVED_EXEC",
		"RESOLVED_DYN", "PREVAILING_DEF_IRONLY_EXP",
	};

	return res >= 0 && res < (int)(sizeof(names) / sizeof(names[0]))
		       ? names[res] : "UNKNOWN";
}

static const char *kind_name(int def)
{
	static const char *const names[] = {
		"def", "weakdef", "undef", "weakundef", "common",
	};

	return def >= 0 && def < (int)(sizeof(names) / sizeof(names[0]))
		       ? names[def] : "def";
}

/* The "file" line of the claimed file HANDLE; false when already listed. */
static bool list_file(const void *handle)
{
	struct claimed_file *c = claimed_file(handle);
	char offset[32];

	if (c && c->listed)
		return false;
	if (c)
		c->listed = true;
	snprintf(offset, sizeof(offset), "%#llx", c ? c->offset : 0);
	list_field("file", true);
	list_field(c ? c->name : "", false);
	list_field(offset, false);
	putc('\n', self.symbols);
	return true;
}

/* ARM and AArch64 mapping symbols ($a, $t, $d, $x, $d.N): not names. */
static bool mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && (!name[2] || name[2] == '.');
}

static int list_native_symbol(const struct elf_symbol *s, void *data)
{
	(void)data;
	if (s->name && *s->name && !mapping_symbol(s->name) && s->in_section &&
	    s->type != STT_SECTION && s->type != STT_FILE) {
		list_field("def", true);
		list_field(s->name, false);
		putc('\n', self.symbols);
	}
	return 0;
}

/*
 * The "native" line of FILE, an ELF object GCC's plugin left to the
 * linker, and a "def" line for each symbol it defines, its statics
 * included: the report tells native code from what IR became.  A file
 * that is not ELF or is corrupt lists nothing: ld says what is wrong.
 */
static void list_native(const struct ld_plugin_input_file *file)
{
	struct elf_in in = { file->fd, file->offset, (uint64_t)file->filesize,
			     NULL, 0 };
	struct elf e;
	char offset[32];

	if (elf_open(&e, &in) > 0 && elf_read_sections(&e) == 0) {
		snprintf(offset, sizeof(offset), "%#llx",
			 (unsigned long long)file->offset);
		list_field("native", true);
		list_field(file->name, false);
		list_field(offset, false);
		putc('\n', self.symbols);
		uint32_t symtab = elf_symtab(&e);

		if (symtab)
			elf_symbols(&e, symtab, list_native_symbol, NULL);
	}
	elf_close(&e);
}

static void list_symbol(const struct ld_plugin_symbol *s, int linker_res,
			const char *why, const struct keep_entry *keep)
{
	char line[16] = "";

	if (keep && keep->file)
		snprintf(line, sizeof(line), "%u", keep->line);
	list_field("sym", true);
	list_field(s->name, false);
	list_field(kind_name(s->def), false);
	list_field(resolution_name(linker_res), false);
	list_field(resolution_name(s->resolution), false);
	list_field(why, false);
	list_field(keep ? keep->glob : "", false);
	list_field(keep ? keep->file : "", false);
	list_field(line, false);
	list_field(s->comdat_key && *s->comdat_key ? "1" : "0", false);
	putc('\n', self.symbols);
}

/* After the policy: did S stay a definition other objects can see? */
static void note_kept(const struct ld_plugin_symbol *s)
{
	if (s->resolution == LDPR_PREVAILING_DEF_IRONLY &&
	    s->def != LDPK_UNDEF && s->def != LDPK_WEAKUNDEF)
		self.internalized_any = true;
	if (s->resolution == LDPR_PREVAILING_DEF ||
	    s->resolution == LDPR_PREVAILING_DEF_IRONLY_EXP)
		self.kept_any = true;
}

static void apply_policy(const void *handle, int nsyms,
			 struct ld_plugin_symbol *syms)
{
	bool policy = self.whole_program && self.output_type == LDPO_REL;
	/* GCC asks once per file; a second answer is not listed again */
	bool list = self.symbols && list_file(handle);

	for (int i = 0; i < nsyms; i++) {
		struct ld_plugin_symbol *s = &syms[i];
		int linker_res = s->resolution;
		/* A weak definition may still be overridden by a later link,
		 * unless lto-ld was told no later link does. */
		bool candidate = policy &&
				 (s->def != LDPK_WEAKDEF || self.final_weak) &&
				 s->resolution == LDPR_PREVAILING_DEF_IRONLY_EXP;
		/* every symbol is matched: the keep set's report needs it */
		const struct keep_entry *keep = keep_match(s->name, candidate);
		const char *why = "";

		if (candidate) {
			if (keep) {
				why = "keep";
			} else if (name_in(&self.asm_names, s->name)) {
				why = "asm";
			} else if (export_kept(s->name)) {
				why = "export";
			} else if (compiler_name(s->name)) {
				why = "compiler";
			} else {
				s->resolution = LDPR_PREVAILING_DEF_IRONLY;
				why = "internalized";
			}
		} else if (policy && s->def == LDPK_WEAKDEF &&
			   s->resolution == LDPR_PREVAILING_DEF_IRONLY_EXP) {
			why = "weak";
		}
		if (policy)
			note_kept(s);
		if (list)
			list_symbol(s, linker_res, why, candidate ? keep : NULL);
	}
}

/* After the linker answered get_symbols: the policy on its resolutions. */
static enum ld_plugin_status resolved(enum ld_plugin_status st,
				      const void *handle, int nsyms,
				      struct ld_plugin_symbol *syms)
{
	if (st == LDPS_OK || st == LDPS_NO_SYMS)
		apply_policy(handle, nsyms, syms);
	return st;
}

static enum ld_plugin_status get_symbols_v1(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols(handle, nsyms, syms), handle, nsyms, syms);
}

static enum ld_plugin_status get_symbols_v2(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols_v2(handle, nsyms, syms), handle, nsyms,
			syms);
}

static enum ld_plugin_status get_symbols_v3(const void *handle, int nsyms,
					    struct ld_plugin_symbol *syms)
{
	return resolved(self.get_symbols_v3(handle, nsyms, syms), handle, nsyms,
			syms);
}

/* ---- hooks GCC's plugin registers through this one ---- */

/*
 * GCC's all_symbols_read asks for every claimed file's resolutions (and
 * then runs LTO): when it returns, every get_symbols call has been seen.
 */
static enum ld_plugin_status all_symbols_read(void)
{
	enum ld_plugin_status st = LDPS_OK;

	if (self.gcc_all_symbols_read)
		st = self.gcc_all_symbols_read();
	report_after_symbols();
	if (self.symbols) {
		int bad = ferror(self.symbols);

		if (fclose(self.symbols) || bad) {
			report(LDPL_ERROR, "%s: cannot write the list of IR "
			       "symbols", self.symbols_path);
			st = LDPS_ERR;
		}
		self.symbols = NULL;
	}
	return st;
}

static enum ld_plugin_status register_claim_file(ld_plugin_claim_file_handler h)
{
	self.gcc_claim_file = h;
	return self.register_claim_file(claim_file);
}

static enum ld_plugin_status
register_claim_file_v2(ld_plugin_claim_file_handler_v2 h)
{
	self.gcc_claim_file_v2 = h;
	return self.register_claim_file_v2(claim_file_v2);
}

static enum ld_plugin_status
register_all_symbols_read(ld_plugin_all_symbols_read_handler h)
{
	self.gcc_all_symbols_read = h;
	return LDPS_OK;	/* ours is registered with the linker after onload */
}

/* ---- onload ---- */

/* One of our options; returns -1 on a bad one. */
static int our_option(const char *opt, const char **gcc_plugin)
{
	if (!strncmp(opt, "gcc-plugin=", 11))
		*gcc_plugin = opt + 11;
	else if (!strcmp(opt, "whole-program"))
		self.whole_program = true;
	else if (!strcmp(opt, "final-weak"))
		self.final_weak = true;
	else if (!strncmp(opt, "keep=", 5) && opt[5])
		keep_add(opt + 5, NULL, 0);
	else if (!strncmp(opt, "keep-file=", 10))
		return keep_file(opt + 10);
	else if (!strncmp(opt, "exports=", 8))
		return exports_file(opt + 8);
	else if (!strncmp(opt, "symbols=", 8) && opt[8]) {
		if (self.symbols)	/* the last one given */
			fclose(self.symbols);
		free(self.symbols_path);
		self.symbols_path = copy_of(opt + 8);
		self.symbols = fopen(self.symbols_path, "w");
		if (!self.symbols) {
			report(LDPL_FATAL, "%s: cannot write: %s",
			       self.symbols_path, strerror(errno));
			return -1;
		}
	} else {
		report(LDPL_FATAL, "unknown option '%s%s'", OPT_PREFIX, opt);
		return -1;
	}
	return 0;
}

/*
 * Is TAG one this plugin has been written against?  Every tag up to the
 * second claim-file hook: those that carry resolutions or register the
 * claim-file and all-symbols-read handlers are interposed, the others
 * change no resolution.  A later tag might (a new hook GCC's plugin would
 * register past ours), so a policy refuses it.
 */
static bool known_tag(int tag)
{
	return tag >= LDPT_NULL && tag <= LAST_KNOWN_TAG;
}

/*
 * The linker's entry P, seen on its way to GCC's plugin (copied to *OUT
 * beforehand): the linker's calls are kept, ours read.  Returns 1 when P
 * is dropped (our option), 0 when it goes on, -1 on a bad option.
 */
static int take_entry(const struct ld_plugin_tv *p, struct ld_plugin_tv *out,
		      const char **gcc_plugin)
{
	switch ((int)p->tv_tag) {
	case LDPT_OPTION:
		if (strncmp(p->tv_u.tv_string, OPT_PREFIX, strlen(OPT_PREFIX)))
			return 0;
		return our_option(p->tv_u.tv_string + strlen(OPT_PREFIX),
				  gcc_plugin) ? -1 : 1;
	case LDPT_LINKER_OUTPUT:
		self.output_type = (enum ld_plugin_output_file_type)p->tv_u.tv_val;
		break;
	case LDPT_GET_SYMBOLS:
		self.get_symbols = p->tv_u.tv_get_symbols;
		out->tv_u.tv_get_symbols = get_symbols_v1;
		break;
	case LDPT_GET_SYMBOLS_V2:
		self.get_symbols_v2 = p->tv_u.tv_get_symbols;
		out->tv_u.tv_get_symbols = get_symbols_v2;
		break;
	case LDPT_GET_SYMBOLS_V3:
		self.get_symbols_v3 = p->tv_u.tv_get_symbols;
		out->tv_u.tv_get_symbols = get_symbols_v3;
		break;
	case LDPT_REGISTER_CLAIM_FILE_HOOK:
		self.register_claim_file = p->tv_u.tv_register_claim_file;
		break;
	case LDPT_REGISTER_CLAIM_FILE_HOOK_V2:
		/* (older headers name no union member for it) */
		self.register_claim_file_v2 = (ld_plugin_register_claim_file_v2)
			p->tv_u.tv_register_claim_file;
		break;
	case LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK:
		self.register_all_symbols_read =
			p->tv_u.tv_register_all_symbols_read;
		break;
	default:
		break;
	}
	return 0;
}

/* With a policy, GCC's handlers are registered through ours. */
static void interpose_hooks(struct ld_plugin_tv *inner, int n)
{
	for (int i = 0; i < n; i++) {
		switch ((int)inner[i].tv_tag) {
		case LDPT_REGISTER_CLAIM_FILE_HOOK:
			inner[i].tv_u.tv_register_claim_file = register_claim_file;
			break;
		case LDPT_REGISTER_CLAIM_FILE_HOOK_V2:
			inner[i].tv_u.tv_register_claim_file =
				(ld_plugin_register_claim_file)register_claim_file_v2;
			break;
		case LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK:
			inner[i].tv_u.tv_register_all_symbols_read =
				register_all_symbols_read;
			break;
		default:
			break;
		}
	}
}

/* GCC's plugin's onload, or NULL (reported). */
static ld_plugin_onload load_gcc_plugin(const char *path)
{
	ld_plugin_onload gcc_onload;
	void *handle;

	if (!path) {
		report(LDPL_FATAL, "no -plugin-opt=%sgcc-plugin=PATH given", OPT_PREFIX);
		return NULL;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		report(LDPL_FATAL, "cannot load GCC's plugin: %s", dlerror());
		return NULL;
	}
	gcc_onload = (ld_plugin_onload)(uintptr_t)dlsym(handle, "onload");
	if (!gcc_onload)
		report(LDPL_FATAL, "%s has no onload", path);
	return gcc_onload;
}

enum ld_plugin_status onload(struct ld_plugin_tv *tv);

enum ld_plugin_status onload(struct ld_plugin_tv *tv)
{
	struct ld_plugin_tv *inner;
	const char *gcc_plugin = NULL;
	ld_plugin_onload gcc_onload;
	enum ld_plugin_status st;
	int n = 0, unknown = -1;
	size_t entries = 0;
	bool policy;

	for (struct ld_plugin_tv *p = tv; p->tv_tag != LDPT_NULL; p++, entries++)
		if (p->tv_tag == LDPT_MESSAGE)
			self.message = p->tv_u.tv_message;
	/* as long as the linker's (a fixed size dropped the options past it);
	 * GCC's plugin may keep it, so it is never freed */
	inner = grow(NULL, entries + 1, sizeof(*inner));
	for (struct ld_plugin_tv *p = tv; p->tv_tag != LDPT_NULL; p++) {
		int taken;

		inner[n] = *p;
		taken = take_entry(p, &inner[n], &gcc_plugin);
		if (taken < 0)
			return LDPS_ERR;
		if (unknown < 0 && !known_tag((int)p->tv_tag))
			unknown = (int)p->tv_tag;
		if (!taken)
			n++;
	}
	inner[n].tv_tag = LDPT_NULL;
	inner[n].tv_u.tv_val = 0;
	keep_index();

	/*
	 * With a policy (or a list to write), GCC's claim_file and
	 * all_symbols_read handlers are called through ours: the names of the
	 * claimed files, and the end of symbol resolution.  Without one the
	 * link is GCC's alone, whatever the linker offers.
	 */
	policy = self.whole_program || self.nkeep || self.symbols;
	if (policy && unknown >= 0) {
		report(LDPL_FATAL, "the linker offers transfer vector entry %d, "
		       "which this plugin does not know: lto-ld's link policy "
		       "(--lto-whole-program, keep sets, --lto-report) could "
		       "be bypassed through it, so it is refused; link without "
		       "them or use an lto-ld that knows this linker", unknown);
		return LDPS_ERR;
	}
	if (policy)
		interpose_hooks(inner, n);

	gcc_onload = load_gcc_plugin(gcc_plugin);
	if (!gcc_onload)
		return LDPS_ERR;
	st = gcc_onload(inner);
	if (st == LDPS_OK && policy && self.register_all_symbols_read)
		st = self.register_all_symbols_read(all_symbols_read);
	return st;
}
