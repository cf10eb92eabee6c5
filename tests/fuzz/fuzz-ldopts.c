/*
 * The ld command line: ld_parse() with @file expansion.  The input is
 * "RESPONSE-FILE\0\0ARG\0ARG...": the first part becomes r.rsp (it may
 * name @r.rsp itself: nesting and recursion), the rest are the arguments;
 * an argument "@" stands for @r.rsp.
 */
#include "../../wrapper/ldopts.h"
#include "../../lib/util.h"
#include "fuzz.h"

#include <string.h>

#define MAX_ARGS 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = NULL;
	char *args, *argv[MAX_ARGS + 2];
	int argc = 0;
	struct ld_cmdline cmd;
	size_t rest;

	for (size_t i = 0; i + 1 < size; i++)
		if (!data[i] && !data[i + 1]) {
			sep = data + i;
			break;
		}
	fuzz_write("r.rsp", data, sep ? (size_t)(sep - data) : size);
	rest = sep ? size - (size_t)(sep + 2 - data) : 0;
	args = xmalloc(rest + 1);
	if (rest)
		memcpy(args, sep + 2, rest);
	args[rest] = '\0';
	argv[argc++] = "ld";
	for (size_t at = 0; sep && at <= rest && argc <= MAX_ARGS;
	     at += strlen(args + at) + 1)
		argv[argc++] = strcmp(args + at, "@") ? args + at : "@r.rsp";
	argv[argc] = NULL;
	if (ld_parse(argc, argv, &cmd) == 0)
		ld_cmdline_free(&cmd);
	free(args);
	return 0;
}
