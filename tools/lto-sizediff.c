/*
 * lto-sizediff: where did the size go between two linked images (a
 * non-LTO and an LTO vmlinux, or any two builds of one program)?  Sizes
 * come from `nm -S --defined-only`, by symbol name with GCC's clone and
 * privatization suffixes removed, and by source directory when the
 * objects the images were linked from are given (--objects); and by the
 * keep reason lto-ld's report gives NEW's IR definitions (--report).
 */
#include "elf.h"
#include "keepreasons.h"
#include "ltoreport.h"
#include "nmread.h"
#include "progs.h"
#include "run.h"
#include "sizediff.h"
#include "strmap.h"
#include "strvec.h"
#include "symname.h"
#include "tmp.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TOP 20

struct options {
	bool json;
	size_t top;
	struct strvec objects;
	const char *nm;		/* --nm, else NULL */
	const char *report;	/* --report, else NULL */
	const char *html;	/* --html, else NULL */
	const char *file[2];
};

/* A name's definitions in the objects of one directory. */
struct def_dir {
	size_t dir;
	size_t objects;
};

struct defs {
	struct def_dir *d;
	size_t n, alloc;
	size_t last_object;	/* object number + 1: one count per object */
};

struct state {
	struct image image[2];
	struct strmap names;	/* normalized image names */
	struct row *rows;	/* by names index */
	size_t rows_alloc;
	int side;		/* the image being read */
	struct strmap ranges[2];	/* "ADDRESS SIZE" of the symbols counted */
	bool linked[2];		/* not relocatable: values are addresses */

	struct strmap defnames;	/* normalized names the objects define */
	struct defs *defs;	/* by defnames index */
	size_t defs_alloc;
	struct strmap dirs;
	struct row *dir_rows;	/* by dirs index */
	size_t dir_rows_alloc;
	struct attribution attr;

	/* directories of the thin archives given: where object names begin */
	struct strvec roots;
	/* the --objects file being read */
	const char *file;
	int kind;
	size_t object;		/* number of the current object + 1; 0: none */
	size_t dir;		/* its directory */

	struct lto_report report;	/* --report */
	int machine[2];			/* e_machine of each image */
	bool want_cells;		/* --html: keep the treemap's leaves */
	struct cells cells;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--json] [--html=FILE] [--top=N] [--objects=FILE]...\n"
		"       [--report=FILE] [--nm=PROG] OLD NEW\n"
		"       %s --help | --version\n"
		"Compare the symbol sizes of two linked images (nm -S), by name\n"
		"(GCC clone suffixes such as .lto_priv.N and .constprop.N removed)\n"
		"and, with --objects, by the source directory of the defining object.\n"
		"  --json           one JSON object instead of text\n"
		"  --html=FILE      also write FILE: one self-contained page with a\n"
		"                   treemap of NEW by directory and symbol, coloured\n"
		"                   by change, and sortable tables\n"
		"  --top=N          rows per list (default %d; 0: all)\n"
		"  --objects=FILE   objects or archives (regular, thin, GCC IR) the\n"
		"                   images were built from; repeatable\n"
		"  --report=FILE    lto-ld's JSON report (--lto-report=FILE.json) of the\n"
		"                   link that made NEW's IR part (the kernel: vmlinux.o):\n"
		"                   NEW's bytes by the reason each was kept\n"
		"  --nm=PROG        the nm to run (default LTO_SIZEDIFF_NM, else the\n"
		"                   nm of this program's target prefix)\n"
		"GCC IR objects are read with the LTO plugin of the gcc that goes\n"
		"with the nm (arm-linux-gnueabihf-nm: arm-linux-gnueabihf-gcc), or of\n"
		"LTO_SIZEDIFF_CC.  Exit status: 0, 1 for unusable inputs, 2 for usage.\n",
		progname, progname, DEFAULT_TOP);
}

static size_t intern_dir(struct state *st, const char *dir)
{
	size_t i = strmap_intern(&st->dirs, dir, NULL);

	ALLOC_GROW(st->dir_rows, i, st->dir_rows_alloc);
	st->dir_rows[i].name = st->dirs.keys[i];
	return i;
}

/* ---- the images ---- */

static bool counts(char type)
{
	return type && strchr("tTdDbBrRwWvV", type);
}

/*
 * An alias (identical code folding leaves one body under the names of
 * all the copies it merged, a weak alias shares its target's) counts as
 * a symbol of its name with no bytes: the image holds them once.
 */
static bool is_alias(struct state *st, uint64_t value, uint64_t size)
{
	char key[48];
	bool added;

	snprintf(key, sizeof(key), "%" PRIx64 " %" PRIx64, value, size);
	strmap_intern(&st->ranges[st->side], key, &added);
	return !added;
}

static void image_symbol(void *ctx, uint64_t value, char type, bool has_size,
			 uint64_t size, const char *name)
{
	struct state *st = ctx;
	struct image *im = &st->image[st->side];
	char *base;
	size_t i;

	if (!has_size || !counts(type))
		return;
	if (st->linked[st->side] && is_alias(st, value, size)) {
		im->aliases++;
		size = 0;
	}
	base = symname_normalize(name, SYMNAME_STATICS);
	i = strmap_intern(&st->names, base, NULL);
	free(base);
	ALLOC_GROW(st->rows, i, st->rows_alloc);
	st->rows[i].name = st->names.keys[i];
	if (!st->rows[i].count[st->side])
		im->names++;
	st->rows[i].size[st->side] += size;
	st->rows[i].count[st->side]++;
	im->symbols++;
	im->size += size;
}

/* Sizes of two architectures say nothing about LTO: refuse them. */
static int same_machine(const struct state *st)
{
	int old = st->machine[OLD], new = st->machine[NEW];

	if (old == new)
		return 0;
	return error("%s is for %s (ELF machine %d) but %s is for %s (ELF "
		     "machine %d): compare two builds for one architecture",
		     st->image[OLD].file, elf_machine_name(old), old,
		     st->image[NEW].file, elf_machine_name(new), new);
}

static int read_image(struct state *st, const char *nm, int side, const char *file)
{
	static char *const args[] = { "-S", "--defined-only", NULL };
	struct nm_sink sink = { NULL, image_symbol, st };
	long lines;
	int type;

	st->side = side;
	st->image[side].file = file;
	if (input_kind(file, false) < 0)
		return 1;
	if (elf_header(file, &st->machine[side], &type) ||
	    (side == NEW && same_machine(st)))
		return 1;
	st->linked[side] = type != ET_REL;
	lines = nm_read(nm, args, file, &sink);
	if (lines < 0)
		return 1;
	if (lines == 0)
		return error("%s: no symbols (stripped?)", file);
	if (!st->image[side].symbols)
		warning("%s: no symbol has a size (a GCC IR object?)", file);
	return 0;
}

/* ---- the objects: name -> directory ---- */

/* PATH past ROOT and its '/' if it lies under ROOT, else NULL. */
static const char *under(const char *path, const char *root)
{
	size_t len = strlen(root);

	if (!strcmp(root, "."))
		return path[0] == '/' ? NULL : path + (starts_with(path, "./") ? 2 : 0);
	if (strncmp(path, root, len))
		return NULL;
	if (len && root[len - 1] == '/')
		return path + len;
	return path[len] == '/' ? path + len + 1 : NULL;
}

/*
 * How an object is named for its directory: relative to the topmost
 * thin archive given that holds it.  A thin archive stores its members
 * relative to itself and nm prints them joined to its directory, so
 * kbuild's vmlinux.a gives kernel/sched/core.o wherever it is, and
 * lib/lib.a given with it gives lib/bitmap.o.  Anything else keeps the
 * path it was given (a regular archive's members are in its directory).
 */
static const char *object_name(const struct state *st, const char *path)
{
	const char *best = path, *rest;
	size_t best_len = SIZE_MAX;

	for (size_t i = 0; i < st->roots.n; i++) {
		rest = under(path, st->roots.v[i]);
		if (rest && strlen(st->roots.v[i]) < best_len) {
			best = rest;
			best_len = strlen(st->roots.v[i]);
		}
	}
	return best;
}

/* An object of the --objects file being read begins. */
static void begin_object(struct state *st, const char *path)
{
	char *dir = dir_name(object_name(st, path));

	st->dir = intern_dir(st, dir);
	st->object = ++st->attr.objects;
	free(dir);
}

/* An archive member: PATH as nm printed it. */
static void object_member(void *ctx, const char *path)
{
	struct state *st = ctx;
	char *joined = NULL;

	if (st->kind == INPUT_ARCHIVE) {
		char *adir = dir_name(st->file);

		path = joined = path_join(adir, path);
		free(adir);
	}
	begin_object(st, path);
	free(joined);
}

/* What names an object defines for the linker, GCC's markers aside. */
static bool defines(char type, const char *name)
{
	return type && strchr("tTdDbBrRwWvVcCgGsSiu", type) &&
	       !starts_with(name, "__gnu_lto_");
}

static void add_def(struct defs *d, size_t object, size_t dir)
{
	size_t i;

	if (d->last_object == object)
		return;
	d->last_object = object;
	for (i = 0; i < d->n && d->d[i].dir != dir; i++)
		;
	if (i == d->n) {
		ALLOC_GROW(d->d, d->n, d->alloc);
		d->d[d->n++] = (struct def_dir){ dir, 0 };
	}
	d->d[i].objects++;
}

static void object_symbol(void *ctx, uint64_t value, char type, bool has_size,
			  uint64_t size, const char *name)
{
	struct state *st = ctx;
	char *base;
	size_t i;

	(void)value, (void)has_size, (void)size;
	if (!st->object || !defines(type, name))
		return;
	base = symname_normalize(name, SYMNAME_STATICS);
	i = strmap_intern(&st->defnames, base, NULL);
	free(base);
	ALLOC_GROW(st->defs, i, st->defs_alloc);
	add_def(&st->defs[i], st->object, st->dir);
}

/* The compiler whose LTO plugin goes with NM: arm-linux-gnueabihf-nm ->
 * arm-linux-gnueabihf-gcc (lto-nm adds the plugin itself, too). */
static char *cc_for(const char *nm)
{
	const char *base = base_name(nm), *cc = env_value("LTO_SIZEDIFF_CC");
	size_t len = strlen(base);

	if (cc && *cc)
		return xstrdup(cc);
	if (ends_with(base, "lto-nm"))
		len -= strlen("lto-nm");
	else if (ends_with(base, "nm"))
		len -= strlen("nm");
	return xasprintf("%.*sgcc", (int)len, base);
}

/*
 * nm reads GCC IR objects only through GCC's LTO plugin; it is given
 * explicitly (not left to bfd-plugins, which cross binutils may not
 * search), from the compiler that goes with the nm.
 */
static void objects_nm_args(const char *nm, struct strvec *args)
{
	char *cc = cc_for(nm), *cc_path = find_program(cc);
	char *plugin = cc_path ? gcc_lto_plugin(cc_path) : NULL;

	strvec_push(args, "--defined-only");
	if (plugin) {
		strvec_push(args, "--plugin");
		strvec_push(args, plugin);
	} else {
		warning("no LTO plugin from '%s -print-file-name=liblto_plugin.so' "
			"(set LTO_SIZEDIFF_CC): GCC IR objects may show no symbols", cc);
	}
	free(plugin);
	free(cc_path);
	free(cc);
}

static int read_objects(struct state *st, const char *nm, char *const *files)
{
	struct strvec args = STRVEC_INIT;
	struct nm_sink sink = { object_member, object_symbol, st };
	int rc = 0;

	/* every file checked, and the roots known, before nm runs */
	for (char *const *f = files; *f; f++) {
		int kind = input_kind(*f, true);

		if (kind < 0)
			return 1;
		if (kind == INPUT_THIN_ARCHIVE)
			strvec_push_nodup(&st->roots, dir_name(*f));
	}
	objects_nm_args(nm, &args);
	for (char *const *f = files; *f && !rc; f++) {
		st->kind = input_kind(*f, true);
		if (st->kind < 0) {
			rc = 1;
			break;
		}
		st->file = *f;
		st->object = 0;
		if (st->kind == INPUT_ELF)
			begin_object(st, *f);
		if (nm_read(nm, args.v, *f, &sink) < 0)
			rc = 1;
		st->attr.files++;
	}
	st->attr.names = st->defnames.n;
	strvec_clear(&args);
	return rc;
}

/* ---- attribution ---- */

/*
 * A treemap leaf (--html), for the bytes the images have of it: in NEW,
 * or only in OLD (what LTO removed is drawn too).
 */
static void add_cell(struct state *st, const char *dir, const char *name,
		     const uint64_t size[2])
{
	struct cells *c = &st->cells;

	if (!st->want_cells || (!size[OLD] && !size[NEW]))
		return;
	ALLOC_GROW(c->v, c->n, c->alloc);
	c->v[c->n++] = (struct cell){ dir, name, { size[OLD], size[NEW] } };
}

/* Directory DIR gets SIZE of name NAME. */
static void give(struct state *st, size_t dir, const char *name,
		 const uint64_t size[2])
{
	for (int side = OLD; side <= NEW; side++)
		st->dir_rows[dir].size[side] += size[side];
	add_cell(st, st->dir_rows[dir].name, name, size);
}

/* SIZE * N / TOTAL without overflowing */
static uint64_t share(uint64_t size, size_t n, size_t total)
{
	return size / total * n + size % total * n / total;
}

/*
 * A name defined in the objects of several directories (statics of one
 * name, or one definition compiled twice) is split between them by the
 * number of objects defining it; what integer division leaves over goes
 * to the first one met, so the directories add up to the totals.
 */
static void split(struct state *st, const struct row *r, const struct defs *d)
{
	size_t total = 0;
	uint64_t rest[2] = { r->size[OLD], r->size[NEW] };

	for (size_t i = 0; i < d->n; i++)
		total += d->d[i].objects;
	for (size_t i = 1; i < d->n; i++) {
		uint64_t part[2];

		for (int side = OLD; side <= NEW; side++) {
			part[side] = share(r->size[side], d->d[i].objects, total);
			rest[side] -= part[side];
		}
		give(st, d->d[i].dir, r->name, part);
	}
	give(st, d->d[0].dir, r->name, rest);
}

static void attribute(struct state *st)
{
	size_t unknown = STRMAP_NONE;

	for (size_t i = 0; i < st->names.n; i++) {
		const struct row *r = &st->rows[i];
		size_t di = strmap_find(&st->defnames, r->name);

		if (di == STRMAP_NONE) {
			if (unknown == STRMAP_NONE)
				unknown = intern_dir(st, UNKNOWN_DIR);
			give(st, unknown, r->name, r->size);
			for (int side = OLD; side <= NEW; side++)
				st->attr.unknown_size[side] += r->size[side];
			st->attr.unknown++;
			continue;
		}
		if (st->defs[di].n > 1) {
			st->attr.ambiguous++;
			for (int side = OLD; side <= NEW; side++)
				st->attr.ambiguous_size[side] += r->size[side];
		}
		split(st, r, &st->defs[di]);
	}
}

/* ---- the lists ---- */

static uint64_t magnitude(int64_t d)
{
	return d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
}

/* Largest change first, then by name, so the output is stable. */
static int by_change(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;
	uint64_t mx = magnitude(x->diff), my = magnitude(y->diff);

	if (mx != my)
		return mx < my ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void push(struct list *l, const struct row *r, uint64_t bytes)
{
	ALLOC_GROW(l->v, l->n, l->alloc);
	l->v[l->n++] = r;
	l->bytes += bytes;
}

static void sort_list(struct list *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_change);
}

static void build_lists(struct state *st, struct report *r)
{
	for (size_t i = 0; i < st->names.n; i++) {
		struct row *row = &st->rows[i];

		row->diff = (int64_t)(row->size[NEW] - row->size[OLD]);
		if (row->diff < 0)
			push(&r->decreases, row, magnitude(row->diff));
		else if (row->diff > 0)
			push(&r->increases, row, (uint64_t)row->diff);
		if (!row->count[NEW])
			push(&r->vanished, row, row->size[OLD]);
		else if (!row->count[OLD])
			push(&r->appeared, row, row->size[NEW]);
		else
			r->common++;
	}
	for (size_t i = 0; st->attr.on && i < st->dirs.n; i++) {
		struct row *d = &st->dir_rows[i];

		d->diff = (int64_t)(d->size[NEW] - d->size[OLD]);
		/* directories of objects that define nothing in the images */
		if (d->size[OLD] || d->size[NEW])
			push(&r->dirs, d, magnitude(d->diff));
	}
	sort_list(&r->decreases);
	sort_list(&r->increases);
	sort_list(&r->vanished);
	sort_list(&r->appeared);
	sort_list(&r->dirs);
}

/* ---- the command line ---- */

static int parse_top(const char *arg, size_t *top)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || arg[0] == '-' || errno || v > SIZE_MAX)
		return error("--top: '%s' is not a number of rows", arg);
	*top = (size_t)v;
	return 0;
}

static int bad_usage(void)
{
	usage(stderr);
	return 2;
}

/* 0 to go on, or the exit status (2 for a bad command line). */
static int parse_options(int argc, char **argv, struct options *o, bool *done)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 't' },
		{ "objects", required_argument, NULL, 'o' },
		{ "nm", required_argument, NULL, 'n' },
		{ "report", required_argument, NULL, 'r' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 't':
			if (parse_top(optarg, &o->top))
				return bad_usage();
			break;
		case 'o':
			strvec_push(&o->objects, optarg);
			break;
		case 'n':
			o->nm = optarg;
			break;
		case 'r':
			o->report = optarg;
			break;
		case 'H':
			if (!*optarg) {
				error("--html: the page needs a file name");
				return bad_usage();
			}
			o->html = optarg;
			break;
		case 'h':
			usage(stdout);
			*done = true;
			return 0;
		case 'V':
			fputs(LTO_LD_VERSION_LINE, stdout);
			*done = true;
			return 0;
		case ':':
			error("option '%s' needs an argument", argv[optind - 1]);
			return bad_usage();
		default:
			if (optopt)
				error("unknown option '-%c'", optopt);
			else
				error("unknown option '%s'", argv[optind - 1]);
			return bad_usage();
		}
	}
	if (argc - optind != 2) {
		error("%s", argc - optind < 2 ? "OLD and NEW are needed" :
		      "only two images, OLD and NEW, can be compared");
		return bad_usage();
	}
	o->file[OLD] = argv[optind];
	o->file[NEW] = argv[optind + 1];
	return 0;
}

/* --nm, LTO_SIZEDIFF_NM, else the nm of our prefix (arm-...-lto-sizediff). */
static char *choose_nm(const struct options *o)
{
	const char *env = env_value("LTO_SIZEDIFF_NM");
	size_t len = strlen(progname);
	char *name, *path;

	if (o->nm)
		name = xstrdup(o->nm);
	else if (env)
		name = xstrdup(env);
	else {
		if (ends_with(progname, "lto-sizediff"))
			len -= strlen("lto-sizediff");
		else
			len = 0;
		name = xasprintf("%.*snm", (int)len, progname);
	}
	path = find_program(name);
	if (!path)
		error("cannot find nm '%s' (use --nm=PROG or LTO_SIZEDIFF_NM)", name);
	free(name);
	return path;
}

static void free_state(struct state *st, struct report *r)
{
	for (size_t i = 0; i < st->defnames.n; i++)
		free(st->defs[i].d);
	free(st->defs);
	free(st->rows);
	free(st->dir_rows);
	free(st->cells.v);
	strmap_free(&st->names);
	strmap_free(&st->ranges[OLD]);
	strmap_free(&st->ranges[NEW]);
	strmap_free(&st->defnames);
	strmap_free(&st->dirs);
	strvec_clear(&st->roots);
	free(r->decreases.v);
	free(r->increases.v);
	free(r->vanished.v);
	free(r->appeared.v);
	free(r->dirs.v);
}

/* NEW's bytes by keep reason, from the report of the link that made it. */
static int join_report(struct state *st, const struct options *o,
		       struct reasons *out)
{
	return lto_report_read(o->report, &st->report) ||
	       reasons_join(&st->report, &st->names, st->rows, o->file[NEW], out);
}

static int write_stdout(const struct options *o, const struct report *r)
{
	if (o->json)
		report_json(stdout, r);
	else
		report_text(stdout, r);
	if (fflush(stdout) != 0 || ferror(stdout))
		return error("writing the output: %s", strerror(errno));
	return 0;
}

static int run(const struct options *o, const char *nm)
{
	struct state st = { .names = STRMAP_INIT, .defnames = STRMAP_INIT,
			    .dirs = STRMAP_INIT, .roots = STRVEC_INIT };
	struct report r = { .top = o->top };
	int rc;

	st.want_cells = o->html != NULL;
	rc = read_image(&st, nm, OLD, o->file[OLD]) ||
	     read_image(&st, nm, NEW, o->file[NEW]);
	if (!rc && o->objects.n) {
		st.attr.on = true;
		rc = read_objects(&st, nm, o->objects.v);
		if (!rc)
			attribute(&st);
	}
	for (size_t i = 0; !rc && !st.attr.on && i < st.names.n; i++)
		add_cell(&st, NULL, st.rows[i].name, st.rows[i].size);
	if (!rc && o->report)
		rc = join_report(&st, o, &r.reasons);
	if (!rc) {
		build_lists(&st, &r);
		memcpy(r.image, st.image, sizeof(r.image));
		r.attr = st.attr;
		r.cells = st.cells;
		/* the page first: a failure leaves neither it nor stdout's text */
		if (o->html)
			rc = report_html(o->html, &r);
		if (!rc)
			rc = write_stdout(o, &r);
	}
	free_state(&st, &r);
	reasons_free(&r.reasons);
	lto_report_free(&st.report);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o = { .top = DEFAULT_TOP, .objects = STRVEC_INIT };
	bool done = false;
	char *nm;
	int rc;

	progname = base_name(argv[0]);
	verbose = env_flag("LTO_LD_VERBOSE");
	run_install_signal_handlers();
	rc = parse_options(argc, argv, &o, &done);
	if (rc || done) {
		strvec_clear(&o.objects);
		return rc;
	}
	nm = choose_nm(&o);
	rc = nm ? run(&o, nm) : 1;
	tmp_cleanup();	/* the --html page's temporary name, after a failure */
	free(nm);
	strvec_clear(&o.objects);
	return rc;
}
