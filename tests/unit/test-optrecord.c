/*
 * GCC's option record (wrapper/optrecord.c): the quoting the gcc driver
 * and lto1 write ('\'' for a quote, spaces inside quotes), the records
 * an ld -r without LTO puts one after the other, and records that are
 * too large or not all in the file.
 */
#include "../../wrapper/optrecord.h"
#include "../../lib/util.h"
#include "tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options of TEXT (LEN bytes), each followed by '|'. */
static char *split(const char *text, size_t len)
{
	struct strvec opts = STRVEC_INIT;
	char *joined;

	optrecord_split(text, len, &opts);
	joined = strvec_join(&opts, "|");
	strvec_clear(&opts);
	return joined;
}

static void check(const char *text, size_t len, const char *want, const char *what)
{
	char *got = split(text, len);

	is_str(got, want, "%s", what);
	free(got);
}

static void test_split(void)
{
	static const char two[] = "'-O2' '-p'\0'-O1' '-mfentry'";

	check("'-O2' '-p' '-mfentry'", 21, "-O2|-p|-mfentry|", "quoted options, as lto1 writes them");
	check("'-DX=a b' '-p'", 14, "-DX=a b|-p|", "a space inside quotes");
	check("'-DX='\\''y'\\'''", 15, "-DX='y'|", "a quote written as '\\''");
	check("''  '-p'", 8, "|-p|", "an empty option, two spaces");
	check("-O2 -p", 6, "-O2|-p|", "unquoted words");
	check(two, sizeof(two) - 1, "-O2|-p|-O1|-mfentry|", "two records, a NUL between (ld -r without LTO)");
	check("'-O2'\0'-pg'", 5, "-O2|", "a record ends at its length");
	check("'-fplugin=/a b", 14, "-fplugin=/a b|", "a quote never closed: the rest of the record");
	check("'-p' \\", 6, "-p|\\|", "a backslash at the end");
	check("", 0, "", "an empty record");
}

static void test_read(void)
{
	char path[] = "/tmp/lto-ld-optrecord.XXXXXX";
	static const char file[] = "ELF?'-O2' '-p'";
	struct strvec opts = STRVEC_INIT;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, file, sizeof(file) - 1) != (ssize_t)sizeof(file) - 1)
		tap_bail_out(path);
	ok(optrecord_read(fd, 4, 10, &opts) == 0 && opts.n == 2 &&
	   !strcmp(opts.v[1], "-p"), "the record at its offset, read");
	strvec_clear(&opts);
	ok(optrecord_read(fd, 4, 11, &opts) == -1 && opts.n == 0,
	   "a record past the end of the file: -1, no options");
	ok(optrecord_read(fd, 4, (uint64_t)OPTRECORD_MAX + 1, &opts) == -1 && opts.n == 0,
	   "a record beyond OPTRECORD_MAX: -1, not read");
	ok(optrecord_read(fd, 4, 0, &opts) == 0 && opts.n == 0, "an empty record: no options");
	close(fd);
	unlink(path);
}

int main(void)
{
	test_split();
	test_read();
	return tap_done();
}
