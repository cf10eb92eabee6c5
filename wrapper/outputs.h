/*
 * The outputs lto-ld writes, the link's and the --lto-report file:
 * under a temporary name next to them, renamed into place when whole,
 * and, as GNU ld's, removed when the link fails.  What kind of output a
 * link with LTO writes, for the links (link/) and the report (post/).
 */
#ifndef LTO_LD_OUTPUTS_H
#define LTO_LD_OUTPUTS_H

/* What a link with LTO writes (GCC's -flinker-output). */
enum link_kind {
	LINK_FINAL,		/* an executable or shared library */
	LINK_NATIVE_REL,	/* ld -r: native code (nolto-rel) */
	LINK_IR_REL,		/* ld -r: one merged IR object (rel) */
};

/*
 * The name to write PATH under: a temporary name next to it (renamed by
 * output_finish), or PATH itself when it is written in place (a
 * symbolic link, a device, a FIFO); NULL after an error "cannot write
 * WHAT PATH" (WHAT: "" for the link's output, "the report ").
 */
const char *output_prepare(const char *path, const char *what);

/* RC, the link's status: 0 renames OUTPUT's temporary name into place. */
int output_finish(int rc, const char *output);

/* After a failed link: OUTPUT removed, as GNU ld does. */
void output_remove_failed(const char *output);

#endif
