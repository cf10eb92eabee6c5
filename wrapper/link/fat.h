/* Fat ld -r outputs: a native object that carries the merged IR. */
#ifndef LTO_LD_LINK_FAT_H
#define LTO_LD_LINK_FAT_H

struct ld_cmdline;
struct toolchain;

/*
 * OUT gets the native object NATIVE and the merged IR object IR, as
 * -ffat-lto-objects gives one object both.  0, or 1 after an error.
 */
int fat_add_ir_part(const struct ld_cmdline *cmd, struct toolchain *tc,
		    const char *native, const char *ir, const char *out);

#endif
