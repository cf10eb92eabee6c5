/*
 * The ELF readers on one file: the scanner (ELF objects and whatever
 * else the input is), and the read of an output's symbol tables
 * (lib/elf.c's symbols, extended section indexes and GCC's IR table).
 */
#include "../../wrapper/post/debuganchors.h"
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
	struct output_syms syms = OUTPUT_SYMS_INIT;

	fuzz_write("input.o", data, size);
	scan_file("input.o", visit, NULL, &info);
	scan_file_kind("input.o", &info);
	output_symbols("input.o", &syms);
	output_syms_clear(&syms);
	return 0;
}
