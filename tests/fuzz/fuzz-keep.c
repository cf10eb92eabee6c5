/*
 * The keep-file parser of lto-ld-plugin.so (static there, so the plugin
 * is compiled in): read the input as a keep file, index it, and match
 * names against it, then free what it built.
 */
#include "../../plugin/lto-ld-plugin.c"
#include "fuzz.h"

static void keep_reset(void)
{
	for (size_t i = 0; i < self.nkeep; i++) {
		free(self.keep[i].glob);
		free(self.keep[i].file);
	}
	free(self.keep);
	free(self.literals);
	free(self.globs);
	self.keep = NULL;
	self.literals = self.globs = NULL;
	self.nkeep = self.nliterals = self.nglobs = 0;
	self.reported = false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "main", "used_global", "a", "" };

	fuzz_write("keep.txt", data, size);
	if (keep_file("keep.txt") == 0) {
		keep_index();
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			keep_match(names[i], true);
		report_after_symbols();	/* no linker: report() prints to stderr */
	}
	keep_reset();
	return 0;
}
