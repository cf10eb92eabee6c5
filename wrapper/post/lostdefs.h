#ifndef LTO_LD_LOSTDEFS_H
#define LTO_LD_LOSTDEFS_H

#include <stddef.h>

struct inputs_info;
struct ld_cmdline;
struct strvec;

/*
 * Print an error for each name of UNDEFINED (the output's undefined
 * symbols) that the plugin's side file SYMBOLS says it made internal,
 * naming the input that defined it.  Returns how many there were (1
 * also when SYMBOLS cannot be read).
 */
size_t lost_definitions(const struct ld_cmdline *cmd,
			const struct inputs_info *info,
			const struct strvec *undefined,
			const char *symbols);

#endif
