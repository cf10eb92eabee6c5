#include "ltonames.h"
#include "elf.h"
#include "symname.h"
#include "util.h"

static bool pick_shared(const struct elf *e, const struct elf_symbol *s,
			void *data)
{
	(void)e;
	(void)data;
	return s->visibility == STV_HIDDEN && s->in_section && s->name &&
	       symname_is_privatized(s->name);
}

static size_t source_name(const char *name, char *out, void *data)
{
	(void)data;
	return symname_unprivatize(name, out);
}

int lto_names_restore(const char *path)
{
	struct elf e;
	int64_t made = -1, renamed = -1;
	int rc = elf_open_path_rw(&e, path);

	if (rc == 0)
		e.why = "not an ELF file";
	if (rc > 0 && elf_read_sections(&e) == 0)
		made = elf_localize(&e, pick_shared, NULL);
	if (made >= 0)
		renamed = elf_shorten_local_names(&e, source_name, NULL);
	if (renamed > 0)
		trace("%s: %lld symbols (%lld of them hidden) have their source names again",
		      path, (long long)renamed, (long long)made);
	rc = renamed < 0 ? error("%s: cannot give GCC's LTO names back their "
				 "source names: %s", path, e.why) : 0;
	elf_close(&e);
	return rc;
}
