/* What the inputs of one ld invocation hold, found by the scanner. */
#ifndef LTO_LD_INPUTS_H
#define LTO_LD_INPUTS_H

#include "scan.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ld_cmdline;
struct toolchain;

#define MAX_IR_VERSIONS 4

/* GCC IR found in one input, or in all of them. */
struct ir_summary {
	bool any_ir;
	size_t n_ir;			/* objects with IR, ... */
	size_t n_ir_members;		/* ...of them in regular archives */
	size_t n_fat;			/* ...of them with native code too */
	char *first_native;		/* first ELF object without IR */
	int n_ir_versions;		/* the first IR object of each LTO version */
	int ir_major[MAX_IR_VERSIONS];
	char *ir_object[MAX_IR_VERSIONS];
	int n_ir_machines;		/* the first IR object of each ELF machine */
	int ir_machine[MAX_IR_VERSIONS];
	char *ir_machine_object[MAX_IR_VERSIONS];
};

/*
 * One object the scan found, recorded once so that nothing walks an
 * archive again: an object file, a member of a regular archive, or the
 * file a thin archive names.
 */
struct input_object {
	size_t input;		/* its input (cmd->inputs[]) */
	char *path;		/* the object's file, or its regular archive */
	char *member;		/* the member's name, or NULL */
	off_t offset;		/* a member's data in PATH, as the plugin API gives it */
	bool in_thin_archive;	/* PATH is a file a thin archive names */
	bool ir;		/* holds GCC IR */
	off_t opts;		/* where in PATH its option record is, or -1 */
	uint64_t opts_size;
};

struct inputs_info {
	struct ir_summary ir;
	struct input_object *objects;	/* in scan order */
	size_t nobjects, objects_alloc;
	bool any_lto_ld_thin;		/* an input written by thin mode */
	char *library_archive;		/* an archive thin mode cannot carry */
	struct scan_file_info *file;	/* one per input */
};

/* Scan every input of CMD.  0, or 1 after an error naming the file. */
int inputs_scan(const struct ld_cmdline *cmd, struct inputs_info *info);

/* Refuse IR of a GCC major version other than the toolchain's. */
int inputs_check_ir_versions(const struct inputs_info *info,
			     struct toolchain *tc);

/*
 * Refuse IR for another ELF machine than the toolchain's target (an x86
 * object in an ARM link), naming the object, before lto-wrapper runs.
 */
int inputs_check_ir_machines(const struct inputs_info *info,
			     struct toolchain *tc);

/*
 * Was an IR object of the inputs compiled with one of OPTIONS (a NULL
 * ends them), as its option record says?  Each record is read until one
 * says so.  A record that is missing or cannot be read says nothing: the
 * scan has reported what is broken in the objects' headers.
 */
bool inputs_ir_compiled_with(const struct inputs_info *info,
			     const char *const *options);

void inputs_free(struct inputs_info *info);

#endif
