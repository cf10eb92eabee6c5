/*
 * Unit tests of the archive walker (lib/ar.c) on archives built byte by
 * byte: regular and thin, the symbol index, long names, "/N:OFFSET"
 * members, lto-ld's thin marker, a member 4 GiB into a sparse archive,
 * and truncated or corrupt headers.
 */
#include "../../lib/ar.h"
#include "tap.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/lto-ld-ar.XXXXXX";
static char path[sizeof(dir) + 16];

/* An archive being built in memory. */
struct buf {
	char b[4096];
	size_t len;
};

static void add(struct buf *a, const void *p, size_t len)
{
	memcpy(a->b + a->len, p, len);
	a->len += len;
}

/* A header NAME (16 characters, padded) of SIZE, then DATA (SIZE bytes, if any). */
static void member(struct buf *a, const char *name, const char *data,
		   unsigned long long size)
{
	char hdr[AR_HDR_SIZE + 1];

	snprintf(hdr, sizeof(hdr), "%-16s%-12s%-6s%-6s%-8s%-10llu`\n", name,
		 "0", "0", "0", "644", size);
	add(a, hdr, AR_HDR_SIZE);
	if (data) {
		add(a, data, (size_t)size);
		if (a->len & 1)
			add(a, "\n", 1);
	}
}

static bool pread_fd(void *src, void *buf, size_t len, off_t off)
{
	return pread(*(int *)src, buf, len, off) == (ssize_t)len;
}

static int write_archive(const void *b, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, b, len) != (ssize_t)len)
		abort();
	return fd;
}

/* Walk the archive in FD: "NAME@DATA:SIZE" for each entry ("/" the index), or the error. */
static void walk(int *fd, off_t size, char *out, size_t cap, struct ar *ar)
{
	struct ar_member m;
	int rc;

	out[0] = '\0';
	if (ar_open(ar, pread_fd, fd, size, "t.a") != 1) {
		snprintf(out, cap, "not an archive");
		return;
	}
	while ((rc = ar_next(ar, &m)) > 0) {
		size_t n = strlen(out);

		snprintf(out + n, cap - n, "%s%s@%lld:%lld%s", n ? " " : "",
			 m.index ? "/" : m.name ? m.name : "(null)",
			 (long long)m.data, (long long)m.size,
			 m.origin ? ":origin" : "");
		free(m.name);
	}
	if (rc < 0)
		snprintf(out, cap, "%s", ar->why);
}

static void test_regular(void)
{
	struct buf a = { .len = 0 };
	static const char index[] = "\0\0\0\1\0\0\0\x8e" "sym\0";
	static const char longnames[] = "a-rather-long-member-name.o/\nb.o/\n";
	char out[512];
	struct ar ar;
	int fd;

	add(&a, AR_MAGIC, AR_MAGIC_SIZE);
	member(&a, "/", index, sizeof(index) - 1);
	member(&a, "//", longnames, sizeof(longnames) - 1);
	member(&a, "short.o/", "abc", 3);	/* odd: a pad byte follows */
	member(&a, "/0", "data", 4);
	member(&a, "/SYM64/", "\0\0\0\0\0\0\0\0", 8);
	member(&a, "/29", "", 0);
	fd = write_archive(a.b, a.len);
	walk(&fd, (off_t)a.len, out, sizeof(out), &ar);
	is_str(out, "/@68:12 short.o@234:3 a-rather-long-member-name.o@298:4 "
	       "/@362:8 b.o@430:0", "regular archive: index, short and long names, padding");
	ok(!ar.thin, "...not thin");
	ok(ar_index_names(&ar, 68, 12, "sym") && !ar_index_names(&ar, 68, 12, "sy"),
	   "...its index names sym, not sy");
	ar_close(&ar);
	close(fd);
}

static void test_thin(void)
{
	struct buf a = { .len = 0 };
	static const char index[] = "\0\0\0\1\0\0\0\x44" LTO_LD_THIN_MARKER;
	static const char longnames[] = "sub/a-long-name.o/\nlib.a/\n";
	char out[512];
	struct ar ar;
	int fd;

	add(&a, AR_THIN_MAGIC, AR_MAGIC_SIZE);
	member(&a, "/", index, sizeof(index));
	member(&a, "//", longnames, sizeof(longnames) - 1);
	member(&a, "/0", NULL, 1234);		/* thin: no data here */
	member(&a, "/19:4294967364", NULL, 10);	/* the member at 4 GiB + 68 of lib.a */
	member(&a, "x.o/", NULL, 5);
	fd = write_archive(a.b, a.len);
	walk(&fd, (off_t)a.len, out, sizeof(out), &ar);
	is_str(out, "/@68:30 sub/a-long-name.o@244:1234 lib.a@304:10:origin x.o@364:5",
	       "thin archive: members without data, long names, /N:OFFSET");
	ok(ar.thin && ar_index_names(&ar, 68, 30, LTO_LD_THIN_MARKER),
	   "...thin, and the lto-ld marker found in its index");
	ar_close(&ar);
	close(fd);

	/* the origin itself */
	{
		struct ar_member m;

		fd = write_archive(a.b, a.len);
		ar_open(&ar, pread_fd, &fd, (off_t)a.len, "t.a");
		ar_next(&ar, &m);
		ar_next(&ar, &m);
		free(m.name);
		ar_next(&ar, &m);
		ok(m.name && !strcmp(m.name, "lib.a") &&
		   m.origin == ((off_t)4 << 30) + 68, "/N:OFFSET: OFFSET beyond 4 GiB read whole");
		free(m.name);
		ar_close(&ar);
		close(fd);
	}
}

/* A member whose data starts past 4 GiB: a sparse archive. */
static void test_far_member(void)
{
	struct buf a = { .len = 0 };
	off_t big = (off_t)4 << 30, second = AR_MAGIC_SIZE + AR_HDR_SIZE + big;
	char out[512];
	struct ar ar;
	struct ar_member m;
	int fd;

	add(&a, AR_MAGIC, AR_MAGIC_SIZE);
	member(&a, "huge.o/", NULL, (unsigned long long)big);
	fd = write_archive(a.b, a.len);
	a.len = 0;
	member(&a, "far.o/", "far!", 4);
	if (pwrite(fd, a.b, a.len, second) != (ssize_t)a.len)
		abort();
	walk(&fd, second + (off_t)a.len, out, sizeof(out), &ar);
	is_str(out, "huge.o@68:4294967296 far.o@4294967424:4",
	       "a member whose data starts 4 GiB into the archive");
	ar_close(&ar);
	ok(ar_open(&ar, pread_fd, &fd, second + (off_t)a.len, "t.a") == 1 &&
	   ar_member_at(&ar, second, &m) == 1 && m.data == second + AR_HDR_SIZE &&
	   m.size == 4, "...found by its header's offset too");
	ok(ar_member_at(&ar, second + 2, &m) < 0 &&
	   strstr(ar.why, "no archive member at offset 4294967366"),
	   "...and no member 2 bytes further: %s", ar.why);
	ar_close(&ar);
	close(fd);
	unlink(path);
}

/* The walk of the archive BYTES (LEN) ends with an error: its message. */
static const char *error_of(const char *bytes, size_t len, char *out, size_t cap)
{
	struct ar ar;
	int fd = write_archive(bytes, len);

	walk(&fd, (off_t)len, out, cap, &ar);
	ar_close(&ar);
	close(fd);
	return out;
}

static void test_corrupt(void)
{
	struct buf a = { .len = 0 };
	char out[512];
	struct ar ar;
	int fd;

	add(&a, AR_MAGIC, AR_MAGIC_SIZE);
	member(&a, "a.o/", "1234", 4);
	ok(strstr(error_of(a.b, a.len - 1, out, sizeof(out)),
		  "t.a(a.o): truncated: member extends beyond end of archive") != NULL,
	   "a member cut short: %s", out);
	ok(strstr(error_of(a.b, AR_MAGIC_SIZE + 30, out, sizeof(out)),
		  "t.a: truncated archive member header") != NULL,
	   "a header cut short: %s", out);
	a.b[AR_MAGIC_SIZE + 58] = 'x';
	ok(strstr(error_of(a.b, a.len, out, sizeof(out)),
		  "t.a: corrupt archive member header at offset 8") != NULL,
	   "a header without its end mark: %s", out);
	a.len = AR_MAGIC_SIZE;
	member(&a, "//", "ab", 2);
	ok(strstr(error_of(a.b, a.len - 1, out, sizeof(out)),
		  "archive table extends beyond end of archive") != NULL,
	   "a long-name table cut short: %s", out);
	a.len = AR_MAGIC_SIZE;
	member(&a, "/5", "ab", 2);
	ok(!strcmp(error_of(a.b, a.len, out, sizeof(out)), "(null)@68:2"),
	   "/N without a long-name table: a member without a name");
	fd = write_archive("!<arch>", 7);
	ok(ar_open(&ar, pread_fd, &fd, 7, "t.a") == 0, "not an archive: 7 bytes");
	close(fd);
	fd = write_archive(AR_MAGIC, AR_MAGIC_SIZE);
	walk(&fd, AR_MAGIC_SIZE, out, sizeof(out), &ar);
	is_str(out, "", "an empty archive has no members");
	close(fd);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/t.a", dir);
	test_regular();
	test_thin();
	test_far_member();
	test_corrupt();
	unlink(path);
	rmdir(dir);
	return tap_done();
}
