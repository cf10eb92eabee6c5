/* The scanner on one file: ELF objects (and whatever else the input is). */
#include "../../wrapper/scan.h"
#include "fuzz.h"

static int visit(const struct scan_object *obj, void *data)
{
	(void)data;
	return obj->ir && obj->lto_major < 0;	/* read every field */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scan_file_info info;

	fuzz_write("input.o", data, size);
	scan_file("input.o", visit, NULL, &info);
	scan_file_kind("input.o", &info);
	return 0;
}
