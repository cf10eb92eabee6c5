/*
 * mkflat: wrap a flat, position-independent program image into a FLAT
 * (bFLT version 4) executable for no-MMU Linux.  No relocations are
 * written, so the image must not need any (see init-flat.S).
 * Usage: mkflat [-t] IMAGE.bin OUTPUT [STACK-SIZE]
 *   -t  the entry point is Thumb code: the kernel starts the program in
 *       Thumb state only when bit 0 of the entry address is set (ARMv7-M
 *       has no other state).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAT_VERSION 4
#define FLAT_FLAG_RAM 0x1	/* load the whole file into RAM */
#define FLAT_HEADER_SIZE 64

struct flat_hdr {
	char magic[4];
	uint32_t rev;
	uint32_t entry;		/* from the start of the file */
	uint32_t data_start;
	uint32_t data_end;
	uint32_t bss_end;
	uint32_t stack_size;
	uint32_t reloc_start;
	uint32_t reloc_count;
	uint32_t flags;
	uint32_t build_date;
	uint32_t filler[5];
};

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "mkflat: %s: %s: %s\n", path, what,
		errno ? strerror(errno) : "bad input");
	return 1;
}

int main(int argc, char **argv)
{
	struct flat_hdr hdr;
	FILE *in, *out;
	static unsigned char image[1 << 20];
	size_t len;
	uint32_t end, thumb = 0;

	if (argc > 1 && !strcmp(argv[1], "-t")) {
		thumb = 1;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: mkflat [-t] IMAGE.bin OUTPUT [STACK-SIZE]\n");
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in)
		return fail("cannot open", argv[1]);
	len = fread(image, 1, sizeof(image), in);
	if (ferror(in) || !feof(in) || len == 0) {
		fclose(in);
		return fail("empty, unreadable or over 1 MiB", argv[1]);
	}
	fclose(in);

	/* Text is the header plus the image; data, bss and relocations are empty. */
	end = (uint32_t)((FLAT_HEADER_SIZE + len + 3) & ~(size_t)3);
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic, "bFLT", 4);
	hdr.rev = htonl(FLAT_VERSION);
	hdr.entry = htonl(FLAT_HEADER_SIZE | thumb);
	hdr.data_start = htonl(end);
	hdr.data_end = htonl(end);
	hdr.bss_end = htonl(end);
	hdr.stack_size = htonl(argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 4096);
	hdr.reloc_start = htonl(end);
	hdr.flags = htonl(FLAT_FLAG_RAM);

	out = fopen(argv[2], "wb");
	if (!out)
		return fail("cannot create", argv[2]);
	if (fwrite(&hdr, sizeof(hdr), 1, out) != 1 ||
	    fwrite(image, 1, len, out) != len ||
	    fwrite("\0\0\0", 1, end - FLAT_HEADER_SIZE - len, out) !=
		    end - FLAT_HEADER_SIZE - len ||
	    fclose(out) != 0) {
		remove(argv[2]);
		return fail("cannot write", argv[2]);
	}
	return 0;
}
