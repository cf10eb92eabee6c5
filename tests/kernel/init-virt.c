/*
 * The /init of the virt and vexpress (MMU) kernels: a static program
 * built with the cross gcc.  It says it runs, loads modules, looks names
 * up in /proc/kallsyms and powers the machine off.  What it checks comes
 * from the kernel command line, which the kernel hands to init as
 * environment variables (names without a dot):
 *   ltoinit_module=PATH,PATH  modules to load (default /lto_ld_test.ko)
 *   ltoinit_modparams=A,B     the first one's parameters, commas for spaces
 *   ltoinit_cksum=PATH        print POSIX cksum's CRC and size of PATH
 *   ltoinit_syms=NAME,NAME    names to resolve in /proc/kallsyms
 * Every result is one console line starting "lto-ld-init:", for the
 * suite to read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* say: one "lto-ld-init: ..." console line */
__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("lto-ld-init: ");
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

/* read_file: the whole of PATH in a malloc'ed buffer, or NULL */
static char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (buf && got != (size_t)st.st_size) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/* read_stream: a file without a size (/proc) as a string (its length
 * in *SIZE when SIZE is not NULL), or NULL */
static char *read_stream(const char *path, size_t *size)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[65536];

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n + 1 > cap) {
			char *bigger;

			cap = (len + n + 1) * 2;
			bigger = realloc(buf, cap);
			if (!bigger) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = bigger;
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	if (size)
		*size = len;
	return buf;
}

/* load_module: init_module(2) of PATH with PARAMS; prints the outcome */
static void load_module(const char *path, const char *params)
{
	size_t len;
	char *image = read_file(path, &len);

	if (!image) {
		say("module %s not loaded: %s", path, strerror(errno));
	} else if (syscall(SYS_init_module, image, len, params) != 0) {
		say("module %s not loaded: %s", path, strerror(errno));
	} else {
		say("module %s loaded", path);
	}
	free(image);
}

/* load_modules: each module of ltoinit_module, in order */
static void load_modules(void)
{
	const char *given = getenv("ltoinit_modparams");
	char *params = strdup(given ? given : "");
	char *paths = strdup(getenv("ltoinit_module") ? getenv("ltoinit_module")
				: "/lto_ld_test.ko");
	char *save = NULL;
	int first = 1;

	for (char *p = params; p && *p; p++)
		if (*p == ',')
			*p = ' ';
	for (char *path = strtok_r(paths, ",", &save); path;
	     path = strtok_r(NULL, ",", &save)) {
		load_module(path, first ? params : "");
		first = 0;
	}
	free(paths);
	free(params);
}

/* cksum: POSIX cksum's CRC of BUF (LEN bytes), as cksum(1) prints it */
static unsigned long cksum(const unsigned char *buf, size_t len)
{
	uint32_t crc = 0;

	for (size_t i = 0; i < len; i++) {
		crc ^= (uint32_t)buf[i] << 24;
		for (int b = 0; b < 8; b++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	}
	for (size_t n = len; n; n >>= 8) {
		crc ^= (uint32_t)(n & 0xff) << 24;
		for (int b = 0; b < 8; b++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	}
	return (unsigned long)~crc;
}

/* print_cksum: "cksum PATH CRC SIZE" of ltoinit_cksum (a /proc file) */
static void print_cksum(void)
{
	const char *path = getenv("ltoinit_cksum");
	size_t len = 0;
	unsigned char *buf;

	if (!path)
		return;
	buf = (unsigned char *)read_stream(path, &len);
	if (!buf) {
		say("cannot read %s: %s", path, strerror(errno));
		return;
	}
	say("cksum %s %lu %zu", path, cksum(buf, len), len);
	free(buf);
}

/* lookup: print every /proc/kallsyms line for NAME (suffix-free) */
static void lookup(const char *kallsyms, const char *name)
{
	size_t name_len = strlen(name);
	int found = 0;

	for (const char *line = kallsyms; *line;) {
		const char *end = strchr(line, '\n');
		const char *sym = strchr(line, ' ');

		if (!end)
			end = line + strlen(line);
		if (sym && sym < end)
			sym = strchr(sym + 1, ' ');
		/* "ADDR TYPE NAME[\t[MODULE]]" */
		if (sym && sym < end && (size_t)(end - sym - 1) >= name_len &&
		    strncmp(sym + 1, name, name_len) == 0 &&
		    (sym + 1 + name_len == end || sym[1 + name_len] == '\t')) {
			printf("lto-ld-init: kallsyms %.*s\n", (int)(end - line), line);
			found = 1;
		}
		line = *end ? end + 1 : end;
	}
	if (!found)
		say("kallsyms %s missing", name);
}

/* resolve_symbols: look up each name of ltoinit_syms */
static void resolve_symbols(void)
{
	const char *given = getenv("ltoinit_syms");
	char *names, *save = NULL;
	char *kallsyms;

	if (!given)
		return;
	kallsyms = read_stream("/proc/kallsyms", NULL);
	if (!kallsyms) {
		say("cannot read /proc/kallsyms: %s", strerror(errno));
		return;
	}
	names = strdup(given);
	for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save))
		lookup(kallsyms, n);
	free(names);
	free(kallsyms);
}

int main(void)
{
	say("userspace reached");
	if (mount("proc", "/proc", "proc", 0, NULL) != 0)
		say("cannot mount /proc: %s", strerror(errno));
	load_modules();
	resolve_symbols();
	print_cksum();
	say("done");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
