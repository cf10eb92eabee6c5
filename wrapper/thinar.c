#include "thinar.h"
#include "ar.h"
#include "io.h"
#include "progs.h"
#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "toolchain.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static int write_whole(const char *path, const unsigned char *buf, size_t len)
{
	/* PATH is lto-ld's temporary file: never written through a symlink */
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return error("%s: %s", path, strerror(errno));
	if (!write_full(fd, buf, len)) {
		close(fd);
		return error("%s: write failed: %s", path, strerror(errno));
	}
	return close(fd) == 0 ? 0 : error("%s: %s", path, strerror(errno));
}

/* Header of an index member of SIZE bytes. */
static void index_header(unsigned char *hdr, size_t size)
{
	char text[AR_HDR_SIZE + 32];

	snprintf(text, sizeof(text), "%-16s%-12s%-6s%-6s%-8s%-10lu`\n", "/",
		 "0", "0", "0", "0", (unsigned long)(size % 10000000000UL));
	memcpy(hdr, text, AR_HDR_SIZE);
}

/*
 * The index is "/" right after the magic: a 32-bit big-endian count, the
 * member offsets, then the names.  Insert the marker (pointing at the first
 * member), and move every offset by what the index grew.
 */
int thinar_mark(const char *path)
{
	static const char marker[] = LTO_LD_THIN_MARKER;
	unsigned char *old = NULL, *new, *p;
	size_t len = 0, old_index = 0, count = 0, names_len = 0, new_index,
		    new_len, first_member;
	const unsigned char *names = NULL;
	bool has_index;
	int rc;

	old = (unsigned char *)read_file(path, &len);
	if (!old)
		return error("%s: %s", path, strerror(errno));
	if (len < 8 || memcmp(old, AR_THIN_MAGIC, AR_MAGIC_SIZE)) {
		free(old);
		return error("%s: not a thin archive", path);
	}
	has_index = len >= 8 + AR_HDR_SIZE && !memcmp(old + 8, "/ ", 2);
	if (has_index) {
		old_index = (size_t)strtoul((char *)old + 8 + 48, NULL, 10);
		if (old_index < 4 || 8 + AR_HDR_SIZE + old_index > len) {
			free(old);
			return error("%s: corrupt archive index", path);
		}
		count = get_be32(old + 8 + AR_HDR_SIZE);
		if (4 + 4 * count > old_index) {
			free(old);
			return error("%s: corrupt archive index", path);
		}
		names = old + 8 + AR_HDR_SIZE + 4 + 4 * count;
		names_len = old_index - 4 - 4 * count;
		while (names_len && names[names_len - 1] == '\0' &&
		       (names_len < 2 || names[names_len - 2] == '\0'))
			names_len--;	/* drop padding, keep the last terminator */
	}
	new_index = 4 + 4 * (count + 1) + names_len + sizeof(marker);
	new_index += new_index & 1;
	/* Everything after the old index moves by this much. */
	first_member = 8 + (has_index ? AR_HDR_SIZE + old_index + (old_index & 1) : 0);
	new_len = len - first_member + 8 + AR_HDR_SIZE + new_index;
	new = xcalloc(1, new_len);
	memcpy(new, AR_THIN_MAGIC, AR_MAGIC_SIZE);
	index_header(new + 8, new_index);
	p = new + 8 + AR_HDR_SIZE;
	put_be32(p, (uint32_t)(count + 1));
	for (size_t i = 0; i < count; i++) {
		uint32_t off = get_be32(old + 8 + AR_HDR_SIZE + 4 + 4 * i);

		put_be32(p + 4 + 4 * i, (uint32_t)(off - first_member + 8 +
						   AR_HDR_SIZE + new_index));
	}
	/* The marker points at the first member after the index. */
	put_be32(p + 4 + 4 * count, (uint32_t)(8 + AR_HDR_SIZE + new_index));
	p += 4 + 4 * (count + 1);
	if (names_len)
		memcpy(p, names, names_len);
	memcpy(p + names_len, marker, sizeof(marker));
	memcpy(new + 8 + AR_HDR_SIZE + new_index, old + first_member,
	       len - first_member);
	rc = write_whole(path, new, new_len);
	free(old);
	free(new);
	return rc;
}

int thinar_write(const struct toolchain *tc, const char *path,
		 char *const *members)
{
	struct strvec argv = STRVEC_INIT, list = STRVEC_INIT;
	char *ar_name = xasprintf("%sar", tc->prefix);
	char *ar = find_program(ar_name);
	int rc;

	if (!ar) {
		rc = error("cannot find '%s' to write the thin archive %s",
			   ar_name, path);
		free(ar_name);
		return rc;
	}
	free(ar_name);
	strvec_pushv(&list, members);
	/*
	 * ar adds to an empty thin archive in the file lto-ld created, rather
	 * than creating one under a name that is no longer ours.
	 */
	if (write_whole(path, (const unsigned char *)AR_THIN_MAGIC, AR_MAGIC_SIZE)) {
		rc = 1;
		goto out;
	}
	strvec_push_nodup(&argv, ar);
	strvec_push(&argv, "--plugin");
	strvec_push(&argv, tc->gcc_plugin);
	strvec_push(&argv, "qcsDT");
	strvec_push(&argv, path);
	strvec_pushv(&argv, list.v);
	/* Thousands of members: hand them over in a response file. */
	if (run_fit_argv(&argv, argv.n - list.n, "thin-members.rsp")) {
		rc = 1;
		goto out;
	}
	rc = run_wait(argv.v, NULL);
	if (rc != 0)
		rc = error("%s failed (exit %d) writing %s", argv.v[0], rc, path);
	else
		rc = thinar_mark(path);
out:
	strvec_clear(&argv);
	strvec_clear(&list);
	return rc;
}
