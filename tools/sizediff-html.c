/*
 * lto-sizediff --html=FILE: one self-contained page.  The data is the
 * --json object plus the treemap's cells, each in a <script
 * type="application/json">; tools/treemap.js (compiled in) draws the
 * treemap and the tables from them.  Nothing is loaded from elsewhere,
 * and the page's Content-Security-Policy forbids it.  File names and
 * symbol names only ever reach the page as JSON that the script puts in
 * as text, so nothing in them is read as HTML.
 */
#include "json.h"
#include "sizediff.h"
#include "strmap.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char treemap_js[] =
#include "tools/treemap-js.h"
	;

static const char style[] =
	"body{font:14px sans-serif;margin:1em 2em;color:#222}\n"
	"h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}\n"
	"#treemap{position:relative;border:1px solid #888;overflow:hidden}\n"
	/* border-box: the padding stays inside the area the bytes give */
	".leaf{position:absolute;box-sizing:border-box;overflow:hidden;"
	"padding:1px 3px;font-size:11px;line-height:13px;white-space:nowrap;"
	"box-shadow:inset 0 0 0 .5px rgba(0,0,0,.35)}\n"
	".frame{position:absolute;pointer-events:none;outline:2px solid #333;"
	"outline-offset:-2px}\n"
	".frame span{position:absolute;left:2px;bottom:2px;font-weight:bold;"
	"font-size:12px;padding:0 3px;background:rgba(255,255,255,.85)}\n"
	"table{border-collapse:collapse;margin-top:.5em}\n"
	"th,td{border:1px solid #bbb;padding:2px 6px}td.n{text-align:right}\n"
	"th{background:#eee;cursor:pointer;user-select:none}\n"
	"#errors{color:#b00}.key{white-space:nowrap;margin-right:1.2em}\n"
	".swatch{display:inline-block;width:1.2em;height:.9em;"
	"vertical-align:middle;margin-right:.3em;border:1px solid #888}\n"
	/* what became of a box: the legend's swatches and the leaves */
	".leaf.removed,.swatch.removed{background:hsl(212,70%,58%)}\n"
	".leaf.shrunk,.swatch.shrunk{background:hsl(205,65%,84%)}\n"
	".leaf.same,.swatch.same{background:hsl(0,0%,87%)}\n"
	".leaf.grown,.swatch.grown{background:hsl(32,95%,80%)}\n"
	".leaf.new,.swatch.new{background:hsl(18,85%,58%)}\n"
	".frame.removed{outline-style:dashed}\n";

/* JSON inside <script>: "<" only occurs in strings, where \u003c is it. */
static void put_script_json(FILE *f, const char *id, const char *json)
{
	fprintf(f, "<script type=\"application/json\" id=\"%s\">", id);
	for (const char *p = json; *p; p++) {
		if (*p == '<')
			fputs("\\u003c", f);
		else
			fputc(*p, f);
	}
	fputs("</script>\n", f);
}

/* {"cells": [[dir index, name, old, new], ...], "dirs": [...]} */
static void cells_json(FILE *f, const struct report *r)
{
	struct strmap dirs = STRMAP_INIT;

	fputs("{\"cells\": [", f);
	for (size_t i = 0; i < r->cells.n; i++) {
		const struct cell *c = &r->cells.v[i];

		fprintf(f, "%s\n[%zu, ", i ? "," : "",
			strmap_intern(&dirs, c->dir ? c->dir : "(all symbols)", NULL));
		json_string(f, c->name);
		fprintf(f, ", %" PRIu64 ", %" PRIu64 "]", c->size[OLD], c->size[NEW]);
	}
	fputs("],\n\"dirs\": [", f);
	for (size_t d = 0; d < dirs.n; d++) {
		fputs(d ? ", " : "", f);
		json_string(f, dirs.keys[d]);
	}
	fputs("]}\n", f);
	strmap_free(&dirs);
}

/* What WRITE puts in a FILE, as a string. */
static char *to_string(void (*write)(FILE *, const struct report *),
		       const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		fatal("out of memory");
	write(m, r);
	if (fclose(m) != 0)
		fatal("out of memory");
	return buf;
}

static void write_page(FILE *f, const struct report *r)
{
	char *report = to_string(report_json, r);
	char *cells = to_string(cells_json, r);

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
		"'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
		"<title>lto-sizediff</title>\n<style>\n%s</style>\n</head>\n"
		"<body>\n<h1 id=\"title\">lto-sizediff</h1>\n"
		"<p id=\"summary\"></p>\n"
		"<noscript><p>The page's script draws the treemap and the tables: "
		"allow JavaScript for this file.</p></noscript>\n"
		"<pre id=\"errors\"></pre>\n"
		"<h2>OLD and NEW by directory and symbol</h2>\n"
		"<p id=\"legend\"></p>\n"
		"<div id=\"treemap\"></div>\n"
		"<h2>Largest changes</h2>\n<table id=\"changes\"></table>\n"
		"<h2>By directory</h2>\n<table id=\"dirs\"></table>\n"
		"<h2>By keep reason</h2>\n<p id=\"reasons-about\"></p>\n"
		"<table id=\"reasons\"></table>\n", style);
	put_script_json(f, "report", report);
	put_script_json(f, "cells", cells);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", treemap_js);
	free(report);
	free(cells);
}

int report_html(const char *file, const struct report *r)
{
	int fd;
	FILE *f;

	if (!tmp_output_create(file, &fd))
		return 1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return error("cannot write %s: %s", file, strerror(errno));
	}
	write_page(f, r);
	if (fflush(f) != 0 || ferror(f)) {
		int err = errno;

		fclose(f);
		return error("cannot write %s: %s", file, strerror(err));
	}
	if (fclose(f) != 0)
		return error("cannot write %s: %s", file, strerror(errno));
	return tmp_output_commit(file);
}
