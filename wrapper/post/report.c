/*
 * --lto-report: the plugin's list of IR symbols (see lto-ld-plugin.c)
 * joined with the output's symbol table.  Each definition gets one fate:
 *
 *   kept            the resolution told GCC to keep it global: non-IR
 *                   reference (PREVAILING_DEF), keep set, compiler name,
 *                   weak (the whole-program policy left it so), exported
 *                   (PREVAILING_DEF_IRONLY_EXP otherwise); or it could be
 *                   internal (PREVAILING_DEF_IRONLY) but the output still
 *                   defines it, under its name or a GCC clone's
 *                   (NAME.lto_priv.N, NAME.constprop.N, ...): still emitted
 *   inlined everywhere  internal, not in the output, and some other IR
 *                   object's symbol table refers to it
 *   removed         internal, not in the output, and no other IR object
 *                   refers to it
 *   not prevailing  another definition won (PREEMPTED_REG, PREEMPTED_IR,
 *                   a duplicate comdat; a common symbol resolved elsewhere)
 *   internalized    internal, and the output's symbols are not known (a
 *                   stripped output, -x, an output that is not a file)
 */
#include "report.h"
#include "../cache/linkcache.h"
#include "json.h"
#include "debuganchors.h"
#include "inputname.h"
#include "../ldopts.h"
#include "sidefile.h"
#include "strvec.h"
#include "symname.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum fate {
	FATE_KEPT,
	FATE_INLINED,
	FATE_REMOVED,
	FATE_NOT_PREVAILING,
	FATE_INTERNALIZED,
	NFATES
};

static const char *const fate_names[NFATES] = {
	"kept", "inlined everywhere", "removed", "not prevailing", "internalized",
};

/* the same as JSON keys */
static const char *const fate_keys[NFATES] = {
	"kept", "inlined_everywhere", "removed", "not_prevailing", "internalized",
};

enum reason {
	WHY_NONE,
	/* kept */
	WHY_NON_IR,
	WHY_KEEP,
	WHY_COMPILER,
	WHY_ASM,
	WHY_WEAK,
	WHY_EXPORTED,
	WHY_EMITTED,
	/* not prevailing */
	WHY_NATIVE_WON,
	WHY_IR_WON,
	WHY_COMDAT,
	WHY_RESOLUTION,	/* a resolution a definition should not get */
	/* internalized */
	WHY_UNKNOWN_OUTPUT,
	NREASONS
};

static const char *const reason_names[NREASONS] = {
	"", "non-IR reference", "keep set", "compiler name",
	"named in asm of another unit", "weak", "exported",
	"still emitted", "a non-IR definition won", "another IR definition won",
	"duplicate comdat", "resolution", "output symbols not known",
};

/* One "sym" line of the plugin's list (strings point into its text). */
struct sym {
	const char *name, *kind, *linker_res, *res, *why;
	const char *keep_glob, *keep_file, *keep_line;
	bool comdat, defined;
	size_t obj;
	enum fate fate;
	enum reason reason;
	const char *as;		/* the output's name for it, when not NAME */
};

/* One "native" line: an object without IR, its names defs[first .. first + n). */
struct native {
	const char *input;
	unsigned long long offset;
	char *name;
	size_t first, n;
};

/* One "file" line: an IR object, its symbols syms[first .. first + n). */
struct object {
	const char *input;
	unsigned long long offset;
	char *name;
	size_t first, n;
	size_t count[NFATES], defined;
};

struct report {
	const struct ld_cmdline *cmd;
	const char *mode, *partial;	/* partial: NULL for a final link */
	struct sym *syms;
	size_t nsyms;
	struct object *objs;
	size_t nobjs;
	struct native *natives;
	size_t nnatives;
	const char **defs;	/* what the natives define */
	size_t ndefs;
	struct sym **refs;	/* undefined symbols, by name */
	size_t nrefs;
	struct strvec out;	/* the output's defined names, sorted */
	bool known;		/* ... when they could be read */
	const char *unknown_why;
	size_t count[NFATES], defined, kept[NREASONS];
	const struct cache_link *cache;
};

/* ---- the plugin's list ---- */

struct list_caps {
	struct report *r;
	size_t syms, objs, natives, defs;	/* what r's arrays have room for */
};

static int list_file(const char *input, unsigned long long offset, void *data)
{
	struct list_caps *caps = data;
	struct report *r = caps->r;
	struct object *o;

	ALLOC_GROW(r->objs, r->nobjs, caps->objs);
	o = &r->objs[r->nobjs++];
	memset(o, 0, sizeof(*o));
	o->input = input;
	o->offset = offset;
	o->first = r->nsyms;
	return 0;
}

static int list_sym(const struct side_sym *from, void *data)
{
	struct list_caps *caps = data;
	struct report *r = caps->r;
	struct sym *s;

	ALLOC_GROW(r->syms, r->nsyms, caps->syms);
	s = &r->syms[r->nsyms++];
	memset(s, 0, sizeof(*s));
	s->name = from->name;
	s->kind = from->kind;
	s->linker_res = from->linker_res;
	s->res = from->res;
	s->why = from->why;
	s->keep_glob = from->keep_glob;
	s->keep_file = from->keep_file;
	s->keep_line = from->keep_line;
	s->comdat = from->comdat;
	s->defined = from->defined;
	s->obj = r->nobjs - 1;
	r->objs[s->obj].n++;
	return 0;
}

static int list_native(const char *input, unsigned long long offset, void *data)
{
	struct list_caps *caps = data;
	struct report *r = caps->r;

	ALLOC_GROW(r->natives, r->nnatives, caps->natives);
	r->natives[r->nnatives++] = (struct native){ input, offset, NULL, r->ndefs, 0 };
	return 0;
}

static int list_def(const char *name, void *data)
{
	struct list_caps *caps = data;
	struct report *r = caps->r;

	ALLOC_GROW(r->defs, r->ndefs, caps->defs);
	r->defs[r->ndefs++] = name;
	r->natives[r->nnatives - 1].n++;
	return 0;
}

static int parse_list(struct report *r, char *text, const char *path)
{
	struct list_caps caps = { r, 0, 0, 0, 0 };
	struct side_visit visit = { list_file, list_sym, list_native, list_def, &caps };

	return side_file_parse(text, path, &visit);
}

/* ---- lookups ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct sym *const *)a)->name, (*(struct sym *const *)b)->name);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* lower_bound's: a name against an array of syms, or of strings. */
static int name_vs_sym(const void *name, const void *element)
{
	return strcmp(name, (*(struct sym *const *)element)->name);
}

static int name_vs_string(const void *name, const void *element)
{
	return strcmp(name, *(char *const *)element);
}

/* Is D referenced by an IR object other than its own? */
static bool referenced(const struct report *r, const struct sym *d)
{
	size_t lo = lower_bound(d->name, r->refs, r->nrefs, sizeof(*r->refs),
				name_vs_sym);

	for (; lo < r->nrefs && !strcmp(r->refs[lo]->name, d->name); lo++)
		if (r->refs[lo]->obj != d->obj)
			return true;
	return false;
}

/* The output's name for NAME (itself or a clone's), or NULL. */
static const char *named_in_output(const struct report *r, const char *name,
				   struct strvec *key)
{
	char *const *v = r->out.v;
	size_t lo = lower_bound(name, v, r->out.n, sizeof(*v), name_vs_string),
	       len;

	if (lo < r->out.n && !strcmp(v[lo], name))
		return v[lo];
	/* NAME.*: a run of its own, from the first one up */
	strvec_clear(key);
	strvec_pushf(key, "%s.", name);
	len = strlen(key->v[0]);
	lo = lower_bound(key->v[0], v, r->out.n, sizeof(*v), name_vs_string);
	for (; lo < r->out.n && !strncmp(v[lo], key->v[0], len); lo++)
		if (symname_is_copy(v[lo], len - 1))
			return v[lo];
	return NULL;
}

/*
 * The same, and when the whole link came from the cache, also under the
 * source's name of a static GCC's LTO renamed NAME.lto_priv.N: a cached
 * output is stored finished, with those names given back.
 */
static const char *in_output(const struct report *r, const char *name,
			     struct strvec *key)
{
	const char *as = named_in_output(r, name, key);
	char *source;

	if (as || !r->cache || !r->cache->link_hit || !symname_is_privatized(name))
		return as;
	source = xmalloc(strlen(name) + 1);
	symname_unprivatize(name, source);
	as = named_in_output(r, source, key);
	free(source);
	return as;
}

/* ---- fates ---- */

static void decide(struct report *r, struct sym *d, struct strvec *key)
{
	const char *res = d->res;
	bool common = !strcmp(d->kind, "common");

	d->fate = FATE_NOT_PREVAILING;
	if (!strcmp(res, "PREEMPTED_REG") ||
	    (common && (!strcmp(res, "RESOLVED_EXEC") || !strcmp(res, "RESOLVED_DYN")))) {
		d->reason = WHY_NATIVE_WON;
	} else if (!strcmp(res, "PREEMPTED_IR") || (common && !strcmp(res, "RESOLVED_IR"))) {
		d->reason = d->comdat ? WHY_COMDAT : WHY_IR_WON;
	} else if (!strcmp(res, "PREVAILING_DEF")) {
		d->fate = FATE_KEPT;
		d->reason = WHY_NON_IR;
	} else if (!strcmp(res, "PREVAILING_DEF_IRONLY_EXP")) {
		d->fate = FATE_KEPT;
		d->reason = !strcmp(d->why, "keep") ? WHY_KEEP :
			    !strcmp(d->why, "weak") ? WHY_WEAK :
			    !strcmp(d->why, "compiler") ? WHY_COMPILER :
			    !strcmp(d->why, "asm") ? WHY_ASM : WHY_EXPORTED;
	} else if (!strcmp(res, "PREVAILING_DEF_IRONLY")) {
		const char *as = r->known ? in_output(r, d->name, key) : NULL;

		if (!r->known) {
			d->fate = FATE_INTERNALIZED;
			d->reason = WHY_UNKNOWN_OUTPUT;
		} else if (as) {
			d->fate = FATE_KEPT;
			d->reason = WHY_EMITTED;
			d->as = strcmp(as, d->name) ? as : NULL;
		} else {
			d->fate = referenced(r, d) ? FATE_INLINED : FATE_REMOVED;
		}
	} else {
		d->reason = WHY_RESOLUTION;
	}
}

/* A definition's fate as the text shows it: "kept (keep set 'entry')". */
static char *fate_label(const struct report *r, const struct sym *d)
{
	const char *fate = fate_names[d->fate];

	switch (d->reason) {
	case WHY_NONE:
		return xstrdup(fate);
	case WHY_KEEP:
		if (*d->keep_file)
			return xasprintf("%s (keep set %s:%s '%s')", fate,
					 d->keep_file, d->keep_line, d->keep_glob);
		return xasprintf("%s (keep set '%s')", fate, d->keep_glob);
	case WHY_RESOLUTION:
		return xasprintf("%s (resolution %s)", fate, d->res);
	case WHY_UNKNOWN_OUTPUT:
		return xasprintf("%s (%s)", fate, r->unknown_why);
	default:
		return xasprintf("%s (%s)", fate, reason_names[d->reason]);
	}
}

/* ---- text ---- */

static void counts_text(FILE *f, const size_t *count, size_t defined)
{
	fprintf(f, "%zu defined, %zu kept, %zu inlined everywhere, %zu removed",
		defined, count[FATE_KEPT], count[FATE_INLINED], count[FATE_REMOVED]);
	if (count[FATE_NOT_PREVAILING])
		fprintf(f, ", %zu not prevailing", count[FATE_NOT_PREVAILING]);
	if (count[FATE_INTERNALIZED])
		fprintf(f, ", %zu internalized", count[FATE_INTERNALIZED]);
}

static void write_text(FILE *f, const struct report *r)
{
	size_t width = 0;

	for (size_t i = 0; i < r->nsyms; i++) {
		char *label;

		if (!r->syms[i].defined)
			continue;
		label = fate_label(r, &r->syms[i]);
		if (strlen(label) > width)
			width = strlen(label);
		free(label);
	}
	fprintf(f, "lto-ld report: %s (%s", r->cmd->output, r->mode);
	if (r->partial)
		fprintf(f, ", %s", r->partial);
	fprintf(f, ")\n");
	if (r->cache && r->cache->dir)
		fprintf(f, "LTRANS cache %s: %u hits, %u misses, %u corrupt "
			"entries replaced%s\n", r->cache->dir, r->cache->hits,
			r->cache->misses, r->cache->corrupt,
			r->cache->link_hit ? "; the whole link came from the cache" : "");
	if (!r->known)
		fprintf(f, "(%s: internal definitions are listed as "
			"\"internalized\")\n", r->unknown_why);
	for (size_t i = 0; i < r->nobjs; i++) {
		const struct object *o = &r->objs[i];

		fprintf(f, "\n%s: ", o->name);
		counts_text(f, o->count, o->defined);
		fputc('\n', f);
		for (size_t j = o->first; j < o->first + o->n; j++) {
			const struct sym *d = &r->syms[j];
			char *label;

			if (!d->defined)
				continue;
			label = fate_label(r, d);
			fprintf(f, "  %-*s  %s", (int)width, label, d->name);
			if (d->as)
				fprintf(f, " (as %s)", d->as);
			fputc('\n', f);
			free(label);
		}
	}
	fprintf(f, "\ntotals: %zu objects, ", r->nobjs);
	counts_text(f, r->count, r->defined);
	fputc('\n', f);
	fprintf(f, "native objects (without IR): %zu, defining %zu symbols\n",
		r->nnatives, r->ndefs);
	if (r->count[FATE_KEPT]) {
		const char *sep = "kept: ";

		for (int w = 0; w < NREASONS; w++) {
			if (!r->kept[w])
				continue;
			fprintf(f, "%s%zu %s", sep, r->kept[w], reason_names[w]);
			sep = ", ";
		}
		fputc('\n', f);
	}
}

/* ---- JSON ---- */

static void json_member(FILE *f, const char *sep, const char *key,
			const char *value)
{
	fprintf(f, "%s", sep);
	json_string(f, key);
	fputs(": ", f);
	json_string(f, value);
}

static void counts_json(FILE *f, const size_t *count, size_t defined)
{
	fprintf(f, "\"defined\": %zu", defined);
	for (int i = 0; i < NFATES; i++)
		fprintf(f, ", \"%s\": %zu", fate_keys[i], count[i]);
}

static void write_json(FILE *f, const struct report *r)
{
	const char *sep;

	fputs("{\n", f);
	json_member(f, "  ", "output", r->cmd->output);
	json_member(f, ",\n  ", "mode", r->mode);
	if (r->partial)
		json_member(f, ",\n  ", "partial", r->partial);
	if (r->cache && r->cache->dir) {
		fputs(",\n  \"ltrans_cache\": {", f);
		json_member(f, "", "dir", r->cache->dir);
		fprintf(f, ", \"hits\": %u, \"misses\": %u, \"corrupt\": %u, "
			"\"link_hit\": %s}", r->cache->hits, r->cache->misses,
			r->cache->corrupt, r->cache->link_hit ? "true" : "false");
	}
	fprintf(f, ",\n  \"output_inspected\": %s", r->known ? "true" : "false");
	if (!r->known)
		json_member(f, ",\n  ", "output_not_inspected_because", r->unknown_why);
	fputs(",\n  \"objects\": [", f);
	for (size_t i = 0; i < r->nobjs; i++) {
		const struct object *o = &r->objs[i];

		fprintf(f, "%s\n    {", i ? "," : "");
		json_member(f, "", "name", o->name);
		fputs(", ", f);
		counts_json(f, o->count, o->defined);
		fputs(", \"symbols\": [", f);
		sep = "\n      ";
		for (size_t j = o->first; j < o->first + o->n; j++) {
			const struct sym *d = &r->syms[j];

			if (!d->defined)
				continue;
			fprintf(f, "%s{", sep);
			sep = ",\n      ";
			json_member(f, "", "name", d->name);
			json_member(f, ", ", "fate", fate_names[d->fate]);
			if (d->reason == WHY_UNKNOWN_OUTPUT)
				json_member(f, ", ", "reason", r->unknown_why);
			else if (d->reason == WHY_RESOLUTION)
				json_member(f, ", ", "reason", "unexpected resolution");
			else if (d->reason != WHY_NONE)
				json_member(f, ", ", "reason", reason_names[d->reason]);
			if (d->reason == WHY_KEEP) {
				json_member(f, ", ", "keep_entry", d->keep_glob);
				if (*d->keep_file) {
					json_member(f, ", ", "keep_file", d->keep_file);
					fprintf(f, ", \"keep_line\": %s", d->keep_line);
				}
			}
			if (d->as)
				json_member(f, ", ", "output_name", d->as);
			json_member(f, ", ", "kind", d->kind);
			json_member(f, ", ", "linker_resolution", d->linker_res);
			json_member(f, ", ", "resolution", d->res);
			fputc('}', f);
		}
		fprintf(f, "%s]}", o->defined ? "\n    " : "");
	}
	fprintf(f, "%s],\n  \"native_objects\": [", r->nobjs ? "\n  " : "");
	for (size_t i = 0; i < r->nnatives; i++) {
		const struct native *o = &r->natives[i];

		fprintf(f, "%s\n    {", i ? "," : "");
		json_member(f, "", "name", o->name);
		fputs(", \"defines\": [", f);
		for (size_t j = o->first; j < o->first + o->n; j++) {
			fputs(j > o->first ? ", " : "", f);
			json_string(f, r->defs[j]);
		}
		fputs("]}", f);
	}
	fprintf(f, "%s],\n  \"totals\": {\"objects\": %zu, ",
		r->nnatives ? "\n  " : "", r->nobjs);
	counts_json(f, r->count, r->defined);
	fputs(", \"kept_by_reason\": {", f);
	sep = "";
	for (int w = 0; w < NREASONS; w++) {
		if (!r->kept[w])
			continue;
		fprintf(f, "%s", sep);
		json_string(f, reason_names[w]);
		fprintf(f, ": %zu", r->kept[w]);
		sep = ", ";
	}
	fputs("}}\n}\n", f);
}

/* ---- the report ---- */

/* Options after which the output's local symbols are not all there. */
static bool locals_discarded(const struct ld_cmdline *cmd)
{
	static const char *const opts[] = {
		"-s", "-x", "--strip-a", "-strip-a", "--discard-a", "-discard-a",
	};

	for (size_t i = 0; i < cmd->args.n; i++) {
		const char *a = cmd->args.v[i];

		if (cmd->roles[i] != ROLE_OPTION)
			continue;
		for (size_t j = 0; j < sizeof(opts) / sizeof(opts[0]); j++)
			if (j < 2 ? !strcmp(a, opts[j]) : starts_with(a, opts[j]))
				return true;
	}
	return false;
}

/* OUT's defined names, from SYMS when it was read already. */
static int read_output(struct report *r, const char *out,
		       const struct output_syms *syms)
{
	struct output_syms own = OUTPUT_SYMS_INIT;

	if (!syms && !is_regular_file(out)) {
		r->unknown_why = "the output is not a regular file";
		return 0;
	}
	if (!syms && output_symbols(out, &own))
		return 1;
	if (!syms)
		syms = &own;
	strvec_pushv(&r->out, syms->defined.v);
	r->known = syms->known;
	output_syms_clear(&own);
	if (!r->known)
		r->unknown_why = "the output has no symbol table";
	else if (locals_discarded(r->cmd)) {
		r->known = false;
		r->unknown_why = "the output's local symbols are discarded (-s, -x)";
	}
	if (r->out.n)
		qsort(r->out.v, r->out.n, sizeof(*r->out.v), by_string);
	return 0;
}

static void decide_all(struct report *r, const struct inputs_info *info)
{
	struct input_names *names = input_names_new(r->cmd, info);
	struct strvec key = STRVEC_INIT;
	size_t nrefs = 0;

	for (size_t i = 0; i < r->nsyms; i++)
		nrefs += !r->syms[i].defined;
	r->refs = xmalloc((nrefs ? nrefs : 1) * sizeof(*r->refs));
	for (size_t i = 0; i < r->nsyms; i++)
		if (!r->syms[i].defined)
			r->refs[r->nrefs++] = &r->syms[i];
	qsort(r->refs, r->nrefs, sizeof(*r->refs), by_name);

	for (size_t i = 0; i < r->nobjs; i++) {
		struct object *o = &r->objs[i];

		o->name = input_name(names, o->input, o->offset);
		for (size_t j = o->first; j < o->first + o->n; j++) {
			struct sym *d = &r->syms[j];

			if (!d->defined)
				continue;
			decide(r, d, &key);
			o->defined++;
			o->count[d->fate]++;
			r->defined++;
			r->count[d->fate]++;
			if (d->fate == FATE_KEPT)
				r->kept[d->reason]++;
		}
	}
	for (size_t i = 0; i < r->nnatives; i++)
		r->natives[i].name = input_name(names, r->natives[i].input,
						r->natives[i].offset);
	strvec_clear(&key);
	input_names_free(names);
}

/*
 * The report's own name is opened as given (/dev/stdout); its temporary
 * name only as the regular file lto-ld created, never through a symlink.
 */
static FILE *open_report(const struct ld_cmdline *cmd, const char *where)
{
	int fd;
	FILE *f;

	if (where == cmd->report)
		return fopen(where, "w");
	fd = open(where, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

int report_write(const struct ld_cmdline *cmd, const struct inputs_info *info,
		 const char *out, enum link_kind kind, const char *symbols,
		 const struct output_syms *out_syms, const struct cache_link *cache,
		 const char *where)
{
	struct report r;
	char *text, *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0, err = 0;

	memset(&r, 0, sizeof(r));
	strvec_init(&r.out);
	r.cmd = cmd;
	r.cache = cache;
	r.mode = kind == LINK_FINAL ? "final" : cmd->whole_program
		 ? "relocatable whole-program" : "relocatable";
	r.partial = kind == LINK_FINAL ? NULL : kind == LINK_IR_REL ? "ir" : "native";
	text = read_text_file(symbols, NULL);
	if (!text)
		return error("%s: the plugin's list of IR symbols, for "
			     "--lto-report, cannot be used", symbols);
	if (parse_list(&r, text, symbols) || read_output(&r, out, out_syms)) {
		rc = 1;
		goto done;
	}
	decide_all(&r, info);
	/* all of it in memory first: a report written in place is whole or empty */
	f = open_memstream(&buf, &len);
	if (!f)
		fatal("out of memory");
	if (ends_with(cmd->report, ".json"))
		write_json(f, &r);
	else
		write_text(f, &r);
	if (fclose(f) != 0)
		fatal("out of memory");
	f = open_report(cmd, where);
	if (!f) {
		rc = error("cannot write the report %s: %s", cmd->report,
			   strerror(errno));
		goto done;
	}
	errno = 0;
	if (fwrite(buf, 1, len, f) != len || fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (err) {
		struct stat st;

		rc = error("cannot write the report %s: %s", cmd->report,
			   strerror(err));
		/* a temporary name is removed at cleanup; in place, empty it */
		if (where == cmd->report && stat(where, &st) == 0 && S_ISREG(st.st_mode))
			(void)!truncate(where, 0);
	}
	if (!rc)
		trace("report of %zu IR definitions in %zu objects written to %s",
		      r.defined, r.nobjs, cmd->report);
done:
	for (size_t i = 0; i < r.nobjs; i++)
		free(r.objs[i].name);
	free(r.objs);
	for (size_t i = 0; i < r.nnatives; i++)
		free(r.natives[i].name);
	free(r.natives);
	free(r.defs);
	free(r.syms);
	free(r.refs);
	strvec_clear(&r.out);
	free(buf);
	free(text);
	return rc;
}
