/* The real ld's command line, from the caller's. */
#ifndef LTO_LD_LINK_LDARGS_H
#define LTO_LD_LINK_LDARGS_H

#include <stdbool.h>

struct inputs_info;
struct ld_cmdline;
struct strvec;

/*
 * Append CMD's arguments to OUT (without -o unless KEEP_OUTPUT), lto-ld
 * thin archives not already under --whole-archive wrapped in it.
 */
void ldargs_push(struct strvec *out, const struct ld_cmdline *cmd,
		 const struct inputs_info *info, bool keep_output);

#endif
