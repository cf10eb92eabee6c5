/* Unit tests of the GNU ld command-line model (wrapper/ldopts.c). */
#include "../../wrapper/ldopts.h"
#include "../../lib/run.h"
#include "../../lib/util.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse(struct ld_cmdline *cmd, char **args)
{
	int argc = 0;

	while (args[argc])
		argc++;
	return ld_parse(argc, args, cmd);
}

/* The inputs, joined by spaces, as ld would see them. */
static char *inputs(const struct ld_cmdline *cmd)
{
	static char buf[4096];

	buf[0] = '\0';
	for (size_t i = 0; i < cmd->ninputs; i++) {
		if (i)
			strcat(buf, " ");
		if (cmd->inputs[i].is_library)
			strcat(buf, "-l");
		strcat(buf, cmd->inputs[i].name);
		if (cmd->inputs[i].whole_archive)
			strcat(buf, "[w]");
	}
	return buf;
}

static void test_argument_forms(void)
{
	struct ld_cmdline cmd;
	char *a1[] = { "ld", "-o", "out1", "a.o", NULL };
	char *a2[] = { "ld", "-oout2", "a.o", NULL };
	char *a3[] = { "ld", "--output=out3", "a.o", NULL };
	char *a4[] = { "ld", "--output", "out4", "a.o", NULL };
	char *a5[] = { "ld", "-output", "out5", "a.o", NULL };
	char *a6[] = { "ld", "--outp", "out6", "a.o", NULL };

	parse(&cmd, a1); is_str(cmd.output, "out1", "-o FILE"); is_str(inputs(&cmd), "a.o", "-o FILE: one input"); ld_cmdline_free(&cmd);
	parse(&cmd, a2); is_str(cmd.output, "out2", "-oFILE"); is_str(inputs(&cmd), "a.o", "-oFILE: one input"); ld_cmdline_free(&cmd);
	parse(&cmd, a3); is_str(cmd.output, "out3", "--output=FILE"); ld_cmdline_free(&cmd);
	parse(&cmd, a4); is_str(cmd.output, "out4", "--output FILE"); is_str(inputs(&cmd), "a.o", "--output FILE: one input"); ld_cmdline_free(&cmd);
	parse(&cmd, a5); is_str(cmd.output, "out5", "-output FILE (one dash, getopt_long_only)"); ld_cmdline_free(&cmd);
	parse(&cmd, a6); is_str(cmd.output, "out6", "--outp: unique prefix of --output"); ld_cmdline_free(&cmd);
}

static void test_options_with_arguments(void)
{
	struct ld_cmdline cmd;
	char *args[] = { "ld", "-T", "x.lds", "-Ttext", "0x1000", "-Tdata=0x2000",
			 "-m", "armelf", "-z", "noexecstack", "-zrelro",
			 "--defsym", "a=1", "-e", "start", "-u", "sym",
			 "-Map", "out.map", "-soname", "libx.so", "-rpath", "/r",
			 "--hash-style", "gnu", "--sysroot=/sys", "-plugin-opt",
			 "x", "--build-id", "-Y", "P,/y", "--wrap", "malloc",
			 "-dT", "d.lds", "-h", "soname", "--just-symbols", "js",
			 "-R", "rs", "--unknown-flag", "real.o", NULL };

	parse(&cmd, args);
	is_str(inputs(&cmd), "real.o", "option arguments are never inputs");
	is_str(cmd.emulation, "armelf", "-m EMULATION recorded");
	is_str(cmd.sysroot, "/sys", "--sysroot=DIR recorded");
	ld_cmdline_free(&cmd);
}

static void test_libraries_and_state(void)
{
	struct ld_cmdline cmd;
	char *args[] = { "ld", "a.o", "-lfoo", "-l", "bar", "-l:libexact.a",
			 "--library=baz", "--whole-archive", "w.a",
			 "--push-state", "--no-whole-archive", "n.a",
			 "--pop-state", "w2.a", "--no-whole-archive",
			 "-Bstatic", "-lst", "-(", "g.a", "-)", "-L", "/d1",
			 "-L/d2", "--library-path=/d3", NULL };

	parse(&cmd, args);
	is_str(inputs(&cmd), "a.o -lfoo -lbar -l:libexact.a -lbaz w.a[w] n.a w2.a[w] -lst g.a",
	       "inputs, -l forms and --whole-archive with --push-state/--pop-state");
	ok(cmd.libdirs.n == 3 && !strcmp(cmd.libdirs.v[2], "/d3"),
	   "-L DIR, -LDIR, --library-path=DIR");
	ok(cmd.inputs[1].dynamic && !cmd.inputs[9].dynamic,
	   "-Bstatic switches -l to archives only");
	ld_cmdline_free(&cmd);
}

static void test_flags(void)
{
	struct ld_cmdline cmd;
	char *r1[] = { "ld", "-r", "a.o", NULL };
	char *r2[] = { "ld", "--relocatable", "a.o", NULL };
	char *r3[] = { "ld", "-i", "a.o", NULL };
	char *v1[] = { "ld", "--version", NULL };
	char *v2[] = { "ld", "-v", NULL };
	char *v3[] = { "ld", "-v", "a.o", NULL };
	char *p1[] = { "ld", "-plugin", "x.so", "a.o", NULL };
	char *own[] = { "ld", "--lto-partial=thin", "-save-temps", "-r", "a.o", NULL };
	char *own2[] = { "ld", "--lto-partial", "ir", "a.o", NULL };
	char *flags[] = { "ld", "--lto-flags=-Wno-lto-type-mismatch '-flto-partition=one'", "a.o", NULL };
	char *bad[] = { "ld", "--lto-partial=fast", "a.o", NULL };
	char *unknown[] = { "ld", "--lto-bogus", "a.o", NULL };
	char *dd[] = { "ld", "--", "-weird.o", NULL };
	char *fmt[] = { "ld", "-b", "binary", "blob", "-b", "elf64-x86-64", "o.o", NULL };

	parse(&cmd, r1); ok(cmd.relocatable, "-r"); ld_cmdline_free(&cmd);
	parse(&cmd, r2); ok(cmd.relocatable, "--relocatable"); ld_cmdline_free(&cmd);
	parse(&cmd, r3); ok(cmd.relocatable, "-i"); ld_cmdline_free(&cmd);
	parse(&cmd, v1); ok(cmd.version, "--version"); ld_cmdline_free(&cmd);
	parse(&cmd, v2); ok(cmd.version, "-v alone prints versions"); ld_cmdline_free(&cmd);
	parse(&cmd, v3); ok(!cmd.version, "-v with inputs links"); ld_cmdline_free(&cmd);
	parse(&cmd, p1); ok(cmd.caller_plugin && cmd.ninputs == 1, "-plugin PATH: the caller drives LTO"); ld_cmdline_free(&cmd);
	parse(&cmd, own);
	ok(cmd.partial == PARTIAL_THIN && cmd.save_temps && cmd.args.n == 2 &&
	   cmd.had_own_options, "lto-ld's own options are consumed");
	ld_cmdline_free(&cmd);
	parse(&cmd, own2); ok(cmd.partial == PARTIAL_IR && cmd.args.n == 1, "--lto-partial MODE"); ld_cmdline_free(&cmd);
	parse(&cmd, flags);
	ok(cmd.lto_flags.n == 2 && !strcmp(cmd.lto_flags.v[1], "-flto-partition=one") &&
	   cmd.args.n == 1, "--lto-flags=FLAGS is split and consumed");
	ld_cmdline_free(&cmd);
	ok(parse(&cmd, bad) != 0, "unknown --lto-partial mode is an error");
	ld_cmdline_free(&cmd);
	ok(parse(&cmd, unknown) != 0, "unknown --lto-* option is an error");
	ld_cmdline_free(&cmd);
	parse(&cmd, dd);
	ok(cmd.ninputs == 0 && cmd.roles[0] == ROLE_IGNORED && cmd.roles[1] == ROLE_IGNORED,
	   "-- ends the command line: ld reads nothing after it");
	ld_cmdline_free(&cmd);
	parse(&cmd, fmt);
	ok(cmd.ninputs == 2 && cmd.inputs[0].raw && !cmd.inputs[1].raw,
	   "-b binary inputs are data, -b elf* switches back");
	ld_cmdline_free(&cmd);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		tap_bail_out(path);
	fputs(text, f);
	fclose(f);
}

static void test_response_files(void)
{
	struct ld_cmdline cmd;
	char dir[] = "/tmp/lto-ld-unit.XXXXXX";
	char *p1, *p2, *p3, *arg1, *arg3;
	char *args[3] = { "ld", NULL, NULL };
	struct strvec split = STRVEC_INIT;
	const char *tricky = "a b\\c'd\"e";
	char *quoted = run_quote_arg(tricky);

	if (!mkdtemp(dir))
		tap_bail_out("mkdtemp");
	p1 = xasprintf("%s/one.rsp", dir);
	p2 = xasprintf("%s/two.rsp", dir);
	p3 = xasprintf("%s/loop.rsp", dir);
	arg3 = xasprintf("@%s", p3);
	{
		char *text = xasprintf("-o 'out file' \"x y.o\" a\\ b.o @%s\n", p2);

		write_file(p1, text);
		free(text);
	}
	write_file(p2, "--whole-archive inner.a\n");
	{
		char *text = xasprintf("@%s\n", p3);

		write_file(p3, text);
		free(text);
	}
	arg1 = xasprintf("@%s", p1);
	args[1] = arg1;
	ok(parse(&cmd, args) == 0, "nested response files parse");
	is_str(cmd.output, "out file", "single quotes in a response file");
	is_str(inputs(&cmd), "x y.o a b.o inner.a[w]",
	       "double quotes, backslash, nested @file");
	ld_cmdline_free(&cmd);
	args[1] = arg3;
	ok(parse(&cmd, args) != 0, "a recursive @file is an error");
	ld_cmdline_free(&cmd);
	args[1] = "@/nonexistent/file";
	parse(&cmd, args);
	is_str(inputs(&cmd), "@/nonexistent/file",
	       "an unreadable @file stays an argument (as in libiberty)");
	ld_cmdline_free(&cmd);
	ld_split_response(quoted, &split);
	ok(split.n == 1 && !strcmp(split.v[0], tricky),
	   "run_quote_arg round-trips through the response-file reader");
	strvec_clear(&split);
	free(quoted);
	unlink(p1); unlink(p2); unlink(p3); rmdir(dir);
	free(p1); free(p2); free(p3); free(arg1); free(arg3);
}

static void test_library_search(void)
{
	struct ld_cmdline cmd;
	char dir[] = "/tmp/lto-ld-unit.XXXXXX";
	char *d1, *d2, *ldir;
	char *args[] = { "ld", NULL, "-lone", "-ltwo", "-l:exact.a", "-Bstatic", "-lthree", "-lmissing", NULL };
	char *defaults[] = { NULL, NULL };

	if (!mkdtemp(dir))
		tap_bail_out("mkdtemp");
	d1 = xasprintf("%s/d1", dir);
	d2 = xasprintf("%s/d2", dir);
	mkdir(d1, 0755);
	mkdir(d2, 0755);
	{
		char *f[] = { xasprintf("%s/libone.a", d1), xasprintf("%s/libtwo.so", d1),
			      xasprintf("%s/libtwo.a", d1), xasprintf("%s/exact.a", d2),
			      xasprintf("%s/libthree.so", d1), xasprintf("%s/libthree.a", d2) };
		for (int i = 0; i < 6; i++) {
			write_file(f[i], "x");
			free(f[i]);
		}
	}
	ldir = xasprintf("-L%s", d1);
	args[1] = ldir;
	defaults[0] = d2;
	parse(&cmd, args);
	ld_resolve_libraries(&cmd, NULL);
	ok(ld_has_unresolved_libraries(&cmd), "libraries outside -L are unresolved at first");
	ld_resolve_libraries(&cmd, defaults);
	ok(cmd.inputs[0].path && ends_with(cmd.inputs[0].path, "d1/libone.a"), "-lone found in -L dir");
	ok(cmd.inputs[1].path && ends_with(cmd.inputs[1].path, "d1/libtwo.so"), "shared library preferred when dynamic");
	ok(cmd.inputs[2].path && ends_with(cmd.inputs[2].path, "d2/exact.a"), "-l:name found in a default dir");
	ok(cmd.inputs[3].path && ends_with(cmd.inputs[3].path, "d2/libthree.a"), "-Bstatic skips libthree.so");
	ok(cmd.inputs[4].path == NULL, "a missing library stays unresolved");
	ld_cmdline_free(&cmd);
	free(ldir);
	{
		char *rm[] = { "/bin/rm", "-rf", dir, NULL };

		run_wait(rm, NULL);
	}
	free(d1); free(d2);
}

int main(void)
{
	test_argument_forms();
	test_options_with_arguments();
	test_libraries_and_state();
	test_flags();
	test_response_files();
	test_library_search();
	return tap_done();
}
