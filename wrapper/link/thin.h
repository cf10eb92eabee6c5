/*
 * Thin ld -r outputs: a thin archive of the inputs, whose LTO runs when
 * it is linked (--lto-partial=thin).
 */
#ifndef LTO_LD_LINK_THIN_H
#define LTO_LD_LINK_THIN_H

struct ld_cmdline;
struct toolchain;

/* Write CMD's output as a thin archive of its inputs. */
int thin_link(const struct ld_cmdline *cmd, struct toolchain *tc);

#endif
