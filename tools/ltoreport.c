#include "ltoreport.h"
#include "symname.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The fate of a definition that survived; every other fate is a loss. */
#define KEPT "kept"

/* What every report starts with in its text form (write_text). */
#define TEXT_FORM "lto-ld report: "

static int not_report(const struct lto_report *r, const char *why)
{
	return error("%s: not an lto-ld JSON report (%s)", r->file, why);
}

static void count_fate(struct lto_report *r, const char *fate)
{
	size_t i;

	for (i = 0; i < r->nfates && strcmp(r->fates[i].name, fate); i++)
		;
	if (i == r->nfates) {
		ALLOC_GROW(r->fates, r->nfates, r->fates_alloc);
		r->fates[r->nfates++] = (struct tally){ fate, 0 };
	}
	r->fates[i].n++;
}

/* One definition: the first of its name, or a kept one, speaks for it. */
static void add_definition(struct lto_report *r, const char *name,
			   const char *fate, const char *reason)
{
	char *base = symname_normalize(name, SYMNAME_STATICS);
	bool added, kept = !strcmp(fate, KEPT);
	size_t i = strmap_intern(&r->names, base, &added);

	free(base);
	if (added) {
		r->fate = xrealloc(r->fate, r->names.n * sizeof(*r->fate));
		r->reason = xrealloc(r->reason, r->names.n * sizeof(*r->reason));
		r->fate[i] = fate;
		r->reason[i] = NULL;
	}
	if (kept && !r->reason[i]) {
		r->fate[i] = fate;
		r->reason[i] = reason;
		r->kept++;
	}
	count_fate(r, fate);
	r->definitions++;
}

/* The "symbols" of objects[I]; 1 if they are not what lto-ld writes. */
static int read_symbols(struct lto_report *r, const struct json *obj, size_t i)
{
	const struct json *syms = json_get(obj, "symbols");
	char what[96];

	if (!syms || syms->type != JSON_ARRAY) {
		snprintf(what, sizeof(what), "objects[%zu] has no \"symbols\" array", i);
		return not_report(r, what);
	}
	for (size_t j = 0; j < syms->n; j++) {
		const struct json *s = &syms->v[j];
		const char *name = json_get_string(s, "name");
		const char *fate = json_get_string(s, "fate");
		const char *reason = json_get_string(s, "reason");

		if (!name || !fate || (!strcmp(fate, KEPT) && !reason)) {
			snprintf(what, sizeof(what), "objects[%zu].symbols[%zu] has no "
				 "string \"%s\"", i, j, !name ? "name" : !fate ? "fate" :
				 "reason");
			return not_report(r, what);
		}
		add_definition(r, name, fate, reason);
	}
	return 0;
}

/* "native_objects" (optional): the names each one "defines". */
static int read_natives(struct lto_report *r)
{
	const struct json *objs = json_get(&r->doc, "native_objects");
	char what[96];

	if (objs && objs->type != JSON_ARRAY)
		return not_report(r, "\"native_objects\" is not an array");
	for (size_t i = 0; objs && i < objs->n; i++) {
		const struct json *defs = json_get(&objs->v[i], "defines");

		for (size_t j = 0; defs && defs->type == JSON_ARRAY && j < defs->n; j++) {
			char *base;

			if (defs->v[j].type != JSON_STRING) {
				defs = NULL;
				break;
			}
			base = symname_normalize(defs->v[j].text, SYMNAME_STATICS);
			strmap_intern(&r->native, base, NULL);
			free(base);
		}
		if (!defs || defs->type != JSON_ARRAY) {
			snprintf(what, sizeof(what), "native_objects[%zu] has no "
				 "\"defines\" array of strings", i);
			return not_report(r, what);
		}
	}
	return 0;
}

static int read_objects(struct lto_report *r)
{
	const struct json *objs = json_get(&r->doc, "objects");

	r->output = json_get_string(&r->doc, "output");
	r->mode = json_get_string(&r->doc, "mode");
	if (r->doc.type != JSON_OBJECT)
		return not_report(r, "not a JSON object");
	if (!r->output || !r->mode)
		return not_report(r, "no string \"output\" and \"mode\"");
	if (!objs || objs->type != JSON_ARRAY)
		return not_report(r, "no \"objects\" array");
	for (size_t i = 0; i < objs->n; i++)
		if (read_symbols(r, &objs->v[i], i))
			return 1;
	return read_natives(r);
}

int lto_report_read(const char *file, struct lto_report *r)
{
	struct json_error err;
	size_t len;
	char *text;
	int rc;

	memset(r, 0, sizeof(*r));
	r->file = file;
	r->names = (struct strmap)STRMAP_INIT;
	r->native = (struct strmap)STRMAP_INIT;
	text = read_file(file, &len);
	if (!text)
		return error("cannot read the report %s: %s", file, strerror(errno));
	if (starts_with(text, TEXT_FORM))
		rc = error("%s: lto-ld's text report; the join needs its JSON form "
			   "(--lto-report=FILE.json)", file);
	else if (json_parse(text, len, &r->doc, &err))
		rc = error("%s:%zu:%zu: not an lto-ld JSON report (not JSON: %s)",
			   file, err.line, err.column, err.what);
	else
		rc = read_objects(r);
	free(text);
	return rc;
}

void lto_report_free(struct lto_report *r)
{
	json_free(&r->doc);
	strmap_free(&r->names);
	strmap_free(&r->native);
	free(r->fate);
	free(r->reason);
	free(r->fates);
}
