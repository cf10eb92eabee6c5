/*
 * Unit tests of the IR scanner (wrapper/scan.c) on ELF files and archives
 * built byte by byte here: 32/64-bit, little/big endian, archives regular
 * and thin, nested, truncated and corrupt.  (The toolchain tests scan what
 * gcc and ar really write.)
 */
#include "../../lib/run.h"
#include "../../wrapper/scan.h"
#include "../../wrapper/thinar.h"
#include "../../lib/util.h"
#include "tap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/lto-ld-scan.XXXXXX";

static char *in_dir(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put(unsigned char *p, uint64_t v, int size, int be)
{
	for (int i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/*
 * An ELF relocatable object whose sections have NAMES; a section named
 * ".gnu.lto_.lto.*" gets a 4-byte LTO header with MAJOR, and the option
 * record ".gnu.lto_.opts" the same 4 bytes.  Returns its size.
 */
static size_t make_elf(unsigned char *buf, int is64, int be,
		       const char *const *names, int major)
{
	size_t ehsize = is64 ? 64 : 52, shentsize = is64 ? 64 : 40;
	size_t nsec = 1, strsz = 1, off;
	size_t name_off[16], data_off = 0, shoff, shstr_off;

	memset(buf, 0, 4096);
	for (const char *const *n = names; *n; n++) {
		name_off[nsec++] = strsz;
		strsz += strlen(*n) + 1;
	}
	name_off[nsec] = strsz;
	strsz += strlen(".shstrtab") + 1;
	/* names, then the LTO header bytes, then the section headers */
	shstr_off = ehsize;
	off = shstr_off;
	buf[off] = 0;
	for (size_t i = 1; i < nsec; i++)
		strcpy((char *)buf + off + name_off[i], names[i - 1]);
	strcpy((char *)buf + off + name_off[nsec], ".shstrtab");
	data_off = off + strsz;
	put(buf + data_off, (uint64_t)major, 2, 0);	/* host order, as GCC writes it */
	shoff = (data_off + 4 + 7) & ~(size_t)7;

	memcpy(buf, "\177ELF", 4);
	buf[4] = is64 ? 2 : 1;
	buf[5] = be ? 2 : 1;
	buf[6] = 1;
	put(buf + 16, 1, 2, be);	/* ET_REL */
	put(buf + 18, is64 ? 62 : 40, 2, be);
	if (is64) {
		put(buf + 40, shoff, 8, be);
		put(buf + 58, shentsize, 2, be);
		put(buf + 60, nsec + 1, 2, be);
		put(buf + 62, nsec, 2, be);
	} else {
		put(buf + 32, shoff, 4, be);
		put(buf + 46, shentsize, 2, be);
		put(buf + 48, nsec + 1, 2, be);
		put(buf + 50, nsec, 2, be);
	}
	for (size_t i = 1; i <= nsec; i++) {
		unsigned char *sh = buf + shoff + i * shentsize;
		int is_lto = i < nsec && (starts_with(names[i - 1], ".gnu.lto_.lto.") ||
					  !strcmp(names[i - 1], ".gnu.lto_.opts"));
		int is_code = i < nsec && starts_with(names[i - 1], ".text.");
		uint64_t s_off = i == nsec ? shstr_off : (is_lto || is_code) ? data_off : 0;
		uint64_t s_size = i == nsec ? strsz : (is_lto || is_code) ? 4 : 0;

		put(sh, name_off[i], 4, be);
		put(sh + 4, i == nsec ? 3 : 1, 4, be);
		if (is64) {
			put(sh + 24, s_off, 8, be);
			put(sh + 32, s_size, 8, be);
		} else {
			put(sh + 16, s_off, 4, be);
			put(sh + 20, s_size, 4, be);
		}
	}
	return shoff + (nsec + 1) * shentsize;
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		tap_bail_out(path);
	fwrite(buf, 1, len, f);
	fclose(f);
}

static const char *const ir_names[] = { ".text", ".gnu.lto_.lto.1a2b",
					".gnu.lto_.symtab.1a2b", ".gnu.lto_.opts", NULL };
/* ".text.*" sections get 4 bytes of code: a fat object. */
static const char *const fat_names[] = { ".text.hot", ".gnu.lto_.symtab.9", NULL };
static const char *const plain_names[] = { ".text", ".data", ".bss", NULL };

struct tally {
	int objects, ir, fat, major;
	int opts;	/* option records found where the LTO header is, in PATH's terms */
	char members[512];
};

static int count(const struct scan_object *obj, void *data)
{
	struct tally *t = data;

	t->objects++;
	if (obj->ir)
		t->ir++;
	if (obj->fat)
		t->fat++;
	if (obj->lto_major)
		t->major = obj->lto_major;
	if (obj->lto_opts >= 0 && obj->lto_opts == obj->lto_header &&
	    obj->lto_opts > obj->offset && obj->lto_opts_size == 4)
		t->opts++;
	strcat(t->members, obj->member ? obj->member : base_name(obj->path));
	strcat(t->members, " ");
	return 0;
}

static int scan(const char *name, struct tally *t, struct scan_file_info *info)
{
	char *path = in_dir(name);
	int rc;

	memset(t, 0, sizeof(*t));
	rc = scan_file(path, count, t, info);
	free(path);
	return rc;
}

static void test_elf_variants(void)
{
	unsigned char buf[4096];
	struct tally t;
	char *path;

	for (int is64 = 0; is64 <= 1; is64++) {
		for (int be = 0; be <= 1; be++) {
			size_t n = make_elf(buf, is64, be, ir_names, 12);
			const char *what = is64 ? (be ? "64-bit big-endian" : "64-bit little-endian")
						: (be ? "32-bit big-endian" : "32-bit little-endian");

			path = in_dir("obj.o");
			write_bytes(path, buf, n);
			free(path);
			ok(scan("obj.o", &t, NULL) == 0 && t.ir == 1 && t.fat == 0,
			   "%s slim IR object detected", what);
			ok(t.major == 12, "%s: LTO major version read (%d)", what, t.major);
			ok(t.opts == 1, "%s: the option record's place", what);
			n = make_elf(buf, is64, be, plain_names, 0);
			path = in_dir("obj.o");
			write_bytes(path, buf, n);
			free(path);
			ok(scan("obj.o", &t, NULL) == 0 && t.objects == 1 && t.ir == 0,
			   "%s object without IR", what);
		}
	}
}

/* A member header: NAME (already '/'-terminated or "/N"), SIZE bytes. */
static size_t ar_header(unsigned char *p, const char *name, size_t size)
{
	char hdr[61];

	snprintf(hdr, sizeof(hdr), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name,
		 "0", "0", "0", "644", size);
	memcpy(p, hdr, 60);
	return 60;
}

static size_t add_member(unsigned char *ar, size_t off, const char *name,
			 const unsigned char *data, size_t size)
{
	off += ar_header(ar + off, name, size);
	memcpy(ar + off, data, size);
	off += size;
	if (off & 1)
		ar[off++] = '\n';
	return off;
}

/* no-op visitor: the fan-out test counts nothing, it must just end */
static int ignore(const struct scan_object *obj, void *data)
{
	(void)obj;
	(void)data;
	return 0;
}

/*
 * fan0.a names m.o ten times, fanN.a names fan(N-1).a ten times: seven
 * levels are 10^7 members, refused once SCAN_MAX_MEMBERS are followed.
 */
static void test_thin_fanout(unsigned char *ar, const unsigned char *plain,
			     size_t nplain)
{
	char *path = in_dir("m.o");
	size_t off;
	int rc;

	write_bytes(path, plain, nplain);
	free(path);
	for (int level = 0; level < 7; level++) {
		char inner[] = "fanX.a/", name[] = "fanX.a";

		inner[3] = (char)('0' + level - 1);
		name[3] = (char)('0' + level);
		memcpy(ar, "!<thin>\n", 8);
		off = 8;
		for (int i = 0; i < 10; i++)
			off += ar_header(ar + off, level ? inner : "m.o/", level ? 100 : nplain);
		path = in_dir(name);
		write_bytes(path, ar, off);
		free(path);
	}
	path = in_dir("fan1.a");
	ok(scan_file(path, ignore, NULL, NULL) == 0, "thin archives naming 100 members in all");
	free(path);
	path = in_dir("fan6.a");
	rc = scan_file(path, ignore, NULL, NULL);
	ok(rc < 0, "thin archives naming 10^7 members in all: refused, bounded work");
	free(path);
}

static void test_archives(void)
{
	static unsigned char ar[65536];
	unsigned char obj[4096], plain[4096];
	size_t nobj = make_elf(obj, 1, 0, ir_names, 12);
	size_t nplain = make_elf(plain, 1, 0, plain_names, 0);
	size_t nfat;
	unsigned char fat[4096];
	const char *longnames = "a_rather_long_member_name.o/\n";
	struct tally t;
	struct scan_file_info info;
	size_t off;
	char *path;

	nfat = make_elf(fat, 0, 1, fat_names, 0);
	/* regular archive: short name, long name, fat big-endian member */
	memcpy(ar, "!<arch>\n", 8);
	off = 8;
	off = add_member(ar, off, "//", (const unsigned char *)longnames, strlen(longnames));
	off = add_member(ar, off, "plain.o/", plain, nplain);
	off = add_member(ar, off, "/0", obj, nobj);
	off = add_member(ar, off, "fat.o/", fat, nfat);
	path = in_dir("lib.a");
	write_bytes(path, ar, off);
	free(path);
	ok(scan("lib.a", &t, &info) == 0 && info.kind == FILE_ARCHIVE &&
	   t.objects == 3 && t.ir == 2 && t.fat == 1,
	   "regular archive: members scanned (%d objects, %d IR, %d fat)",
	   t.objects, t.ir, t.fat);
	is_str(t.members, "plain.o a_rather_long_member_name.o fat.o ",
	       "member names, long-name table followed");
	ok(t.opts == 1, "the option record of a member, at its place in the archive");

	/* truncated archive: the last member's data is cut */
	path = in_dir("trunc.a");
	write_bytes(path, ar, off - 100);
	free(path);
	ok(scan("trunc.a", &t, NULL) < 0, "truncated archive member is an error");

	/* corrupt header magic */
	ar[8 + 58] = 'X';
	path = in_dir("corrupt.a");
	write_bytes(path, ar, off);
	free(path);
	ok(scan("corrupt.a", &t, NULL) < 0, "corrupt member header is an error");

	/* thin archive naming members on disk: an IR object and a nested thin archive */
	path = in_dir("m1.o");
	write_bytes(path, obj, nobj);
	free(path);
	path = in_dir("sub");
	mkdir(path, 0755);
	free(path);
	path = in_dir("sub/m2.o");
	write_bytes(path, plain, nplain);
	free(path);
	{
		const char *inner_names = "m2.o/\n";
		const char *outer_names = "m1.o/\nsub/inner.a/\n";

		memcpy(ar, "!<thin>\n", 8);
		off = add_member(ar, 8, "//", (const unsigned char *)inner_names, strlen(inner_names));
		off += ar_header(ar + off, "/0", nplain);
		path = in_dir("sub/inner.a");
		write_bytes(path, ar, off);
		free(path);

		off = add_member(ar, 8, "//", (const unsigned char *)outer_names, strlen(outer_names));
		off += ar_header(ar + off, "/0", nobj);
		off += ar_header(ar + off, "/6", 100);
		path = in_dir("outer.a");
		write_bytes(path, ar, off);
		free(path);
	}
	ok(scan("outer.a", &t, &info) == 0 && info.kind == FILE_THIN_ARCHIVE &&
	   t.objects == 2 && t.ir == 1,
	   "nested thin archives: members found relative to each archive");
	ok(!info.lto_ld_thin, "a thin archive from elsewhere has no lto-ld marker");
	path = in_dir("outer.a");
	ok(thinar_mark(path) == 0, "marker added to the index");
	ok(scan("outer.a", &t, &info) == 0 && info.lto_ld_thin && t.objects == 2,
	   "marked thin archive still scans, and is recognised");
	ok(scan_file_kind(path, &info) == 0 && info.lto_ld_thin,
	   "scan_file_kind sees the marker");
	free(path);

	/*
	 * Header forms binutils writes: a name field with a trailing '/'
	 * after the long-name index, and "/N:OFFSET" for a member of a
	 * regular archive named by a thin one (lib.a holds an IR member).
	 */
	{
		const char *names = "m1.o/\nlib.a/\n";
		char field[17];

		memcpy(ar, "!<thin>\n", 8);
		off = add_member(ar, 8, "//", (const unsigned char *)names, strlen(names));
		off += ar_header(ar + off, "/0             /", nobj);
		snprintf(field, sizeof(field), "/6:%d", 8 + 60 + 30 + 60 + (int)nplain + (int)(nplain & 1));
		off += ar_header(ar + off, field, nobj);
		path = in_dir("forms.a");
		write_bytes(path, ar, off);
		free(path);
	}
	ok(scan("forms.a", &t, NULL) == 0 && t.objects == 2 && t.ir == 2,
	   "thin archive: '/N   /' names and a /N:OFFSET member of a regular archive");

	path = in_dir("sub/m2.o");
	unlink(path);
	free(path);
	ok(scan("outer.a", &t, NULL) < 0, "thin archive with a missing member is an error");
	test_thin_fanout(ar, plain, nplain);
}

static void test_bad_objects(void)
{
	unsigned char buf[4096];
	size_t n = make_elf(buf, 1, 0, ir_names, 12);
	struct tally t;
	struct scan_file_info info;
	char *path = in_dir("cut.o");

	write_bytes(path, buf, n - 30);
	ok(scan("cut.o", &t, NULL) < 0, "object cut inside its section headers is an error");
	write_bytes(path, buf, 30);
	ok(scan("cut.o", &t, NULL) < 0, "object cut inside its ELF header is an error");
	buf[4] = 7;
	write_bytes(path, buf, n);
	ok(scan("cut.o", &t, NULL) < 0, "unknown ELF class is an error");
	write_bytes(path, "INPUT(a.o)\n", 11);
	ok(scan("cut.o", &t, &info) == 0 && info.kind == FILE_OTHER && t.objects == 0,
	   "a linker script is not an object and not an error");
	free(path);
	ok(scan("does-not-exist.o", &t, NULL) < 0, "a missing file is an error");
}

int main(void)
{
	char *rm[] = { "/bin/rm", "-rf", dir, NULL };

	if (!mkdtemp(dir))
		tap_bail_out("mkdtemp");
	test_elf_variants();
	test_archives();
	test_bad_objects();
	run_wait(rm, NULL);
	return tap_done();
}
