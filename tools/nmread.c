#include "nmread.h"
#include "ar.h"
#include "elf.h"
#include "run.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Up to LEN first bytes of FD; the count read, or -1 with errno set. */
static ssize_t read_head(int fd, char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t got = read(fd, buf + done, len - done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		done += (size_t)got;
	}
	return (ssize_t)done;
}

int input_kind(const char *file, bool archives)
{
	char head[8];
	struct stat st;
	ssize_t got;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error("cannot open %s: %s", file, strerror(errno)), -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("%s: not a regular file", file), -1;
	}
	got = read_head(fd, head, sizeof(head));
	close(fd);
	if (got < 0)
		return error("cannot read %s: %s", file, strerror(errno)), -1;
	if (got >= 4 && !memcmp(head, "\177ELF", 4))
		return INPUT_ELF;
	if (archives && got == 8 && !memcmp(head, AR_MAGIC, AR_MAGIC_SIZE))
		return INPUT_ARCHIVE;
	if (archives && got == 8 && !memcmp(head, AR_THIN_MAGIC, AR_MAGIC_SIZE))
		return INPUT_THIN_ARCHIVE;
	error("%s: not an ELF file%s", file, archives ? " or archive" : "");
	return -1;
}

int elf_header(const char *file, int *machine, int *type)
{
	struct elf e;
	int rc = elf_open_path(&e, file);

	if (rc > 0) {
		*machine = e.machine;
		*type = e.type;
	} else if (rc == 0) {
		error("%s: not an ELF file", file);
	} else if (e.in.fd < 0) {
		error("cannot open %s: %s", file, e.why);
	} else {
		error("%s: %s", file, e.why);
	}
	elf_close(&e);
	return rc > 0 ? 0 : -1;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* End of the hex digits at S (S itself when there are none). */
static char *skip_hex(char *s)
{
	while (is_hex(*s))
		s++;
	return s;
}

/*
 * One line of `nm [-S] --defined-only`: "VALUE [SIZE] T NAME".  SIZE is
 * printed as wide as VALUE, so a one-character field is the type even
 * when it is a hex letter (b, d).  False for anything else.
 */
static bool parse_symbol(char *line, const struct nm_sink *sink)
{
	char *p = skip_hex(line), *q;
	uint64_t value = strtoull(line, NULL, 16), size = 0;
	bool has_size = false;

	if (p == line || *p != ' ')
		return false;
	p++;
	q = skip_hex(p);
	if (q - p > 1 && *q == ' ') {
		size = strtoull(p, NULL, 16);
		has_size = true;
		p = q + 1;
	}
	if (!p[0] || p[0] == ' ' || p[1] != ' ' || !p[2])
		return false;
	sink->symbol(sink->ctx, value, p[0], has_size, size, p + 2);
	return true;
}

/*
 * nm's output: symbol lines, and for archives "\nMEMBER:\n" before each
 * member's.  A line is a symbol line first, so a symbol whose name ends
 * in ':' is never taken for a member.
 */
static long parse_output(char *out, const struct nm_sink *sink)
{
	long symbols = 0;

	for (char *line = out, *next; *line; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		line[len] = '\0';
		if (!len)
			continue;
		if (parse_symbol(line, sink)) {
			symbols++;
		} else if (line[len - 1] == ':') {
			line[len - 1] = '\0';
			if (sink->member)
				sink->member(sink->ctx, line);
		}
	}
	return symbols;
}

long nm_read(const char *nm, char *const *args, const char *file,
	     const struct nm_sink *sink)
{
	struct strvec argv = STRVEC_INIT;
	char *out = NULL;
	long symbols = -1;
	int rc;

	strvec_push(&argv, nm);
	strvec_pushv(&argv, args);
	strvec_push(&argv, "--");
	strvec_push(&argv, file);
	rc = run_capture(argv.v, &out);
	if (rc > 0)
		error("%s: %s failed (exit status %d)", file, nm, rc);
	else if (rc < 0)
		error("%s: cannot read its symbols", file);
	else
		symbols = parse_output(out, sink);
	free(out);
	strvec_clear(&argv);
	return symbols;
}
