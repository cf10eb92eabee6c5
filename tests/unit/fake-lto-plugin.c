/*
 * A stand-in for GCC's liblto_plugin.so, for test-plugin-host: GCC 12's
 * registers only the first claim-file hook, GCC 13's both, so this one
 * registers both (the second is the binutils 2.41 hook) unless given
 * -plugin-opt=fake:v1-only.  It claims every file; at all_symbols_read
 * it asks the linker for the resolutions of two definitions of each
 * claimed file, foo and asm_target, and keeps them for the harness.
 */
#include <stdint.h>	/* plugin-api.h needs it first */
#include <plugin-api.h>

#include <stdbool.h>
#include <string.h>

#define TAG_CLAIM_FILE_HOOK_V2 35	/* binutils 2.41 */

typedef enum ld_plugin_status (*claim_v2_handler)(
	const struct ld_plugin_input_file *, int *, bool);
typedef enum ld_plugin_status (*register_claim_v2)(claim_v2_handler);

/* What the harness reads (dlsym). */
int fake_v1_calls, fake_v2_calls, fake_known_used;
int fake_resolution[2];		/* foo, asm_target */

static ld_plugin_get_symbols get_symbols;
static const void *claimed_handle;

enum ld_plugin_status fake_claim_file(const struct ld_plugin_input_file *file,
				      int *claimed);
enum ld_plugin_status fake_claim_file_v2(const struct ld_plugin_input_file *file,
					 int *claimed, bool known_used);
enum ld_plugin_status onload(struct ld_plugin_tv *tv);

enum ld_plugin_status fake_claim_file(const struct ld_plugin_input_file *file,
				      int *claimed)
{
	fake_v1_calls++;
	claimed_handle = file->handle;
	*claimed = 1;
	return LDPS_OK;
}

enum ld_plugin_status fake_claim_file_v2(const struct ld_plugin_input_file *file,
					 int *claimed, bool known_used)
{
	fake_v2_calls++;
	fake_known_used = known_used;
	claimed_handle = file->handle;
	*claimed = 1;
	return LDPS_OK;
}

/* GCC's plugin asks for every claimed file's resolutions here. */
static enum ld_plugin_status all_symbols_read(void)
{
	struct ld_plugin_symbol syms[2] = {
		{ .name = (char *)"foo", .def = LDPK_DEF },
		{ .name = (char *)"asm_target", .def = LDPK_DEF },
	};
	enum ld_plugin_status st;

	if (!claimed_handle || !get_symbols)
		return LDPS_ERR;
	st = get_symbols(claimed_handle, 2, syms);
	fake_resolution[0] = syms[0].resolution;
	fake_resolution[1] = syms[1].resolution;
	return st;
}

enum ld_plugin_status onload(struct ld_plugin_tv *tv)
{
	ld_plugin_register_claim_file reg = NULL;
	register_claim_v2 reg_v2 = NULL;
	ld_plugin_register_all_symbols_read reg_asr = NULL;
	bool v1_only = false;

	for (; tv->tv_tag != LDPT_NULL; tv++) {
		if (tv->tv_tag == LDPT_REGISTER_CLAIM_FILE_HOOK)
			reg = tv->tv_u.tv_register_claim_file;
		else if ((int)tv->tv_tag == TAG_CLAIM_FILE_HOOK_V2)
			reg_v2 = (register_claim_v2)tv->tv_u.tv_register_claim_file;
		else if (tv->tv_tag == LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK)
			reg_asr = tv->tv_u.tv_register_all_symbols_read;
		else if (tv->tv_tag == LDPT_GET_SYMBOLS_V2)
			get_symbols = tv->tv_u.tv_get_symbols;
		else if (tv->tv_tag == LDPT_OPTION &&
			 !strcmp(tv->tv_u.tv_string, "fake:v1-only"))
			v1_only = true;
	}
	/* like GCC: the first hook always, the second where offered */
	if (!reg || reg(fake_claim_file) != LDPS_OK)
		return LDPS_ERR;
	if (reg_v2 && !v1_only && reg_v2(fake_claim_file_v2) != LDPS_OK)
		return LDPS_ERR;
	if (!reg_asr)
		return LDPS_ERR;
	return reg_asr(all_symbols_read);
}
