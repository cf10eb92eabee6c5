/*
 * ld -r with IR: the output of each --lto-partial mode (fat, thin,
 * native, ir), and the mode a link's inputs leave possible.
 */
#ifndef LTO_LD_LINK_PARTIAL_H
#define LTO_LD_LINK_PARTIAL_H

struct inputs_info;
struct ld_cmdline;
struct toolchain;

int partial_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		 const struct inputs_info *info);

#endif
