/*
 * elf-localize OBJECT NAME...: make the global symbols NAME of OBJECT
 * local in place with lib/elf.c's elf_localize(), the edit lto-ld makes
 * to the debug anchors of its ld -r output.  tests/toolchain/localize.sh
 * compares the result with objcopy --localize-symbol on real objects.
 * elf-localize OBJECT --lto-names: lto-ld's edit of the names GCC's LTO
 * made up (wrapper/post/ltonames.c), for objects no compiler writes
 * (tests/toolchain/lto-names.sh).
 */
#include "../../lib/elf.h"
#include "../../wrapper/post/ltonames.h"

#include <stdio.h>
#include <string.h>

struct names {
	char **v;
	int n;
};

static bool named(const struct elf *e, const struct elf_symbol *sym, void *data)
{
	const struct names *names = data;

	(void)e;
	for (int i = 0; sym->name && i < names->n; i++)
		if (!strcmp(sym->name, names->v[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct names names = { argv + 2, argc - 2 };
	struct elf e;
	int64_t made = -1;

	if (argc < 2) {
		fprintf(stderr, "usage: elf-localize OBJECT NAME... | OBJECT --lto-names\n");
		return 2;
	}
	if (argc == 3 && !strcmp(argv[2], "--lto-names"))
		return lto_names_restore(argv[1]);
	if (elf_open_path_rw(&e, argv[1]) == 1 && elf_read_sections(&e) == 0)
		made = elf_localize(&e, named, &names);
	if (made < 0)
		fprintf(stderr, "elf-localize: %s: %s\n", argv[1],
			e.why ? e.why : "not an ELF file");
	else
		printf("%lld\n", (long long)made);
	elf_close(&e);
	return made < 0;
}
