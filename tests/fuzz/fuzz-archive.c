/*
 * The archive reader: the input's first byte picks a regular or a thin
 * archive, the rest follows the magic.  Thin members are looked up
 * beside it (the fuzzer's own directory: m.o is the last input).
 */
#include "../../wrapper/scan.h"
#include "fuzz.h"

#include <string.h>

static int visit(const struct scan_object *obj, void *data)
{
	(void)data;
	return obj->ir && obj->fat && obj->lto_major < 0;
}

static int member(off_t offset, const char *name, void *data)
{
	(void)data;
	return name && offset < 0 && !strcmp(name, "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scan_file_info info;
	uint8_t *buf;
	char *name;

	if (size < 1)
		return 0;
	buf = malloc(size + 7);
	if (!buf)
		abort();
	memcpy(buf, data[0] & 1 ? "!<thin>\n" : "!<arch>\n", 8);
	memcpy(buf + 8, data + 1, size - 1);
	fuzz_write("input.a", buf, size + 7);
	fuzz_write("m.o", data + 1, size - 1);
	free(buf);
	scan_file("input.a", visit, NULL, &info);
	scan_archive_members("input.a", member, NULL);
	name = scan_member_name("input.a", 68);
	free(name);
	return 0;
}
