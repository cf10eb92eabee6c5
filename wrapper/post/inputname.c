#include "inputname.h"
#include "../inputs.h"
#include "../ldopts.h"
#include "../scan.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A member of a regular archive: where its data starts, its name. */
struct member {
	unsigned long long offset;
	char *name;
};

struct archive {
	char *path;
	struct member *members;	/* in archive order: offsets ascending */
	size_t n, alloc;
};

/* A member file of a thin archive among the inputs. */
struct thin_member {
	dev_t dev;
	ino_t ino;
	size_t order;		/* first found first: the first archive wins */
	const char *archive;	/* the input's path */
};

struct input_names {
	const struct ld_cmdline *cmd;
	const struct inputs_info *info;
	struct archive *archives;
	size_t narchives, archives_alloc;
	struct thin_member *thin;
	size_t nthin, thin_alloc;
	bool thin_indexed;
};

struct input_names *input_names_new(const struct ld_cmdline *cmd,
				    const struct inputs_info *info)
{
	struct input_names *names = xcalloc(1, sizeof(*names));

	names->cmd = cmd;
	names->info = info;
	return names;
}

/* ---- regular archives ---- */

static int by_member_offset(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int add_member(off_t data_offset, const char *name, void *data)
{
	struct archive *a = data;

	if (!name)
		return 0;
	ALLOC_GROW(a->members, a->n, a->alloc);
	a->members[a->n].offset = (unsigned long long)data_offset;
	a->members[a->n].name = xstrdup(name);
	a->n++;
	return 0;
}

/*
 * The members of the regular archive PATH: from the scan's record when
 * it is an input (nothing is read again), else from the archive (one
 * the linker named otherwise, a -l found under another spelling).
 */
static const struct archive *archive(struct input_names *names, const char *path)
{
	const struct inputs_info *info = names->info;
	struct archive *a;

	for (size_t i = 0; i < names->narchives; i++)
		if (!strcmp(names->archives[i].path, path))
			return &names->archives[i];
	ALLOC_GROW(names->archives, names->narchives, names->archives_alloc);
	a = &names->archives[names->narchives++];
	a->path = xstrdup(path);
	a->members = NULL;
	a->n = a->alloc = 0;
	for (size_t i = 0; i < info->nobjects; i++) {
		const struct input_object *o = &info->objects[i];

		/* (a thin archive's /N:OFFSET member is recorded by offset only) */
		if (o->member && info->file[o->input].kind == FILE_ARCHIVE &&
		    !strcmp(o->path, path))
			add_member(o->offset, o->member, a);
	}
	if (a->n)
		qsort(a->members, a->n, sizeof(*a->members), by_member_offset);
	else
		scan_archive_members(path, add_member, a);
	return a;
}

static int by_offset(const void *key, const void *element)
{
	unsigned long long offset = *(const unsigned long long *)key;
	const struct member *m = element;

	return offset < m->offset ? -1 : offset > m->offset;
}

static const char *member_at(const struct archive *a, unsigned long long offset)
{
	size_t lo = lower_bound(&offset, a->members, a->n, sizeof(*a->members),
				by_offset);

	return lo < a->n && a->members[lo].offset == offset ? a->members[lo].name
							     : NULL;
}

/* ---- thin archives ---- */

static void add_thin_member(struct input_names *names, const char *path,
			    const char *archive)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return;
	ALLOC_GROW(names->thin, names->nthin, names->thin_alloc);
	names->thin[names->nthin].dev = st.st_dev;
	names->thin[names->nthin].ino = st.st_ino;
	names->thin[names->nthin].order = names->nthin;
	names->thin[names->nthin].archive = archive;
	names->nthin++;
}

/* By file, and the first found first. */
static int by_file(const void *a, const void *b)
{
	const struct thin_member *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int by_inode(const void *key, const void *element)
{
	const struct stat *st = key;
	const struct thin_member *m = element;

	if (st->st_dev != m->dev)
		return st->st_dev < m->dev ? -1 : 1;
	return st->st_ino < m->ino ? -1 : st->st_ino > m->ino;
}

static void index_thin(struct input_names *names)
{
	const struct ld_cmdline *cmd = names->cmd;

	names->thin_indexed = true;
	/* the files the scan found through thin archives among the inputs */
	for (size_t i = 0; i < names->info->nobjects; i++) {
		const struct input_object *o = &names->info->objects[i];

		if (o->in_thin_archive && !o->member &&
		    names->info->file[o->input].kind == FILE_THIN_ARCHIVE)
			add_thin_member(names, o->path, cmd->inputs[o->input].path);
	}
	if (names->nthin)
		qsort(names->thin, names->nthin, sizeof(*names->thin), by_file);
}

/* The thin archive among the inputs that names the file PATH, or NULL. */
static const char *thin_archive_of(struct input_names *names, const char *path)
{
	struct stat st;
	size_t lo;

	if (!names->thin_indexed)
		index_thin(names);
	if (!names->nthin || stat(path, &st) != 0)
		return NULL;
	lo = lower_bound(&st, names->thin, names->nthin, sizeof(*names->thin),
			 by_inode);
	if (lo < names->nthin && names->thin[lo].dev == st.st_dev &&
	    names->thin[lo].ino == st.st_ino)
		return names->thin[lo].archive;
	return NULL;
}

char *input_name(struct input_names *names, const char *input,
		 unsigned long long offset)
{
	const char *thin;

	if (!*input)
		return xstrdup("an IR object");
	if (offset) {
		const char *member = member_at(archive(names, input), offset);

		if (member)
			return xasprintf("%s(%s)", input, member);
		return xasprintf("%s@%#llx", input, offset);
	}
	thin = thin_archive_of(names, input);
	if (thin)
		return xasprintf("%s(%s)", thin, input);
	return xstrdup(input);
}

void input_names_free(struct input_names *names)
{
	if (!names)
		return;
	for (size_t i = 0; i < names->narchives; i++) {
		for (size_t j = 0; j < names->archives[i].n; j++)
			free(names->archives[i].members[j].name);
		free(names->archives[i].members);
		free(names->archives[i].path);
	}
	free(names->archives);
	free(names->thin);
	free(names);
}
