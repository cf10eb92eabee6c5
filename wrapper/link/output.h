/*
 * The outputs lto-ld writes itself (the link's, the --lto-report file):
 * written under a temporary name next to them and renamed when whole,
 * and removed, as GNU ld's, when the link fails.
 */
#ifndef LTO_LD_LINK_OUTPUT_H
#define LTO_LD_LINK_OUTPUT_H

/*
 * The name the real tool should write for OUTPUT (a temporary one, or
 * OUTPUT itself when it is not a regular file); NULL after an error.
 */
const char *prepare_output(const char *output);

/* RC, the link's status: 0 renames the temporary output into place. */
int finish_output(int rc, const char *output);

/* After a failed link: OUTPUT removed, as GNU ld does. */
void remove_failed_output(const char *output);

#endif
