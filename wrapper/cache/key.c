/* What a cache entry is filed under (key.h): options and objects, hashed. */
#include "key.h"
#include "../optrecord.h"
#include "../scan.h"
#include "strvec.h"
#include "util.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void key_text(struct sha256 *h, const char *s)
{
	sha256_update(h, s, strlen(s) + 1);
}

void key_number(struct sha256 *h, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	sha256_update(h, b, sizeof(b));
}

/*
 * How many of the options from ARGS[I] on name this link's temporary
 * files rather than say how to compile (0: none): -o, -dumpbase and
 * -dumpdir with their arguments, WPA's -fltrans-output-list and
 * -fresolution, and anything in TMPDIR.
 */
int key_temporary_names(char *const *args, size_t n, size_t i,
			const char *tmpdir)
{
	const char *a = args[i];

	if (!strcmp(a, "-o") || !strcmp(a, "-dumpbase") || !strcmp(a, "-dumpdir"))
		return i + 1 < n ? 2 : 1;
	if (starts_with(a, "-fltrans-output-list=") || starts_with(a, "-fresolution=") ||
	    (tmpdir && strstr(a, tmpdir)))
		return 1;
	return 0;
}

/*
 * GCC's option record (optrecord.h) as the options it holds, those
 * naming temporary files left out.  -1 when it cannot be read.
 */
static int hash_options_record(struct sha256 *h, int fd,
			       const struct scan_section *sec, const char *tmpdir)
{
	struct strvec opts = STRVEC_INIT;

	if (optrecord_read(fd, (off_t)sec->offset, sec->size, &opts))
		return -1;
	for (size_t i = 0; i < opts.n;) {
		int skip = key_temporary_names(opts.v, opts.n, i, tmpdir);

		if (!skip)
			key_text(h, opts.v[i]);
		i += skip ? (size_t)skip : 1;
	}
	strvec_clear(&opts);
	return 0;
}

struct partition_hash {
	struct sha256 *h;
	int fd;
	const char *tmpdir;
};

/*
 * GCC names IR sections with a random number (the seed) after a dot:
 * the same IR compiled twice differs only there, so it is left out.
 */
static void hash_section_name(struct sha256 *h, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t len = strlen(name);

	if (starts_with(name, ".gnu.lto_") && dot && dot[1] &&
	    strspn(dot + 1, "0123456789abcdef") == strlen(dot + 1))
		len = (size_t)(dot - name);
	sha256_update(h, name, len);
	sha256_update(h, "", 1);
}

static int hash_section(const struct scan_section *sec, void *data)
{
	struct partition_hash *p = data;

	hash_section_name(p->h, sec->name);
	key_number(p->h, sec->type);
	key_number(p->h, sec->flags);
	/* (the section names themselves: each is hashed above, as it reads) */
	if (!strcmp(sec->name, ".shstrtab"))
		return 0;
	if (sec->type == 8)	/* SHT_NOBITS: a size, no bytes */
		return key_number(p->h, sec->size), 0;
	if (strcmp(sec->name, OPTRECORD_SECTION) || sec->size > OPTRECORD_MAX) {
		key_number(p->h, sec->size);
		return sha256_update_fd(p->h, p->fd, sec->offset, sec->size);
	}
	return hash_options_record(p->h, p->fd, sec, p->tmpdir);
}

/* An ELF object by its sections (see hash_section). */
int key_object(struct sha256 *h, const char *path, const char *tmpdir)
{
	struct partition_hash p = { h, open(path, O_RDONLY | O_CLOEXEC), tmpdir };
	int rc;

	if (p.fd < 0)
		return -1;
	rc = scan_sections(path, hash_section, &p);
	close(p.fd);
	return rc;
}
/*
 * The file an option names after its last '=' (-fplugin=P, a plugin's
 * argument), by its contents: the compile may read it.  -1 when a
 * plugin cannot be read.
 */
int key_option_file(struct sha256 *h, const char *option)
{
	const char *eq = strrchr(option, '=');
	struct stat st;

	if (!eq || stat(eq + 1, &st) != 0 || !S_ISREG(st.st_mode))
		return starts_with(option, "-fplugin=") ? -1 : 0;
	return sha256_update_file(h, eq + 1);
}
