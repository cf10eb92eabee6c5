/*
 * Temporary files: one private directory per run, plus the temporary names
 * outputs (the link's, the --lto-report file) are written to before they
 * are renamed into place.  Everything is
 * removed on success, failure and on SIGINT/SIGTERM/SIGHUP, unless the user
 * asked to keep it (-save-temps, LTO_LD_SAVE_TEMPS=1).
 */
#ifndef LTO_LD_TMP_H
#define LTO_LD_TMP_H

#include <stdbool.h>

/* Keep the private directory (its path is printed when the run ends). */
void tmp_keep(bool keep);
/*
 * The private directory ($TMPDIR/lto-ld-PID.XXXXXX), created on first use,
 * after removing those of killed runs; NULL (message printed) on failure.
 */
const char *tmp_dir(void);
/* A new path inside the private directory; the file is removed at cleanup. */
char *tmp_file(const char *name);
/*
 * Create a temporary file next to OUTPUT under a name nobody can guess
 * (.NAME.lto-ld-PID-RANDOM, O_EXCL|O_NOFOLLOW) and return its name; it is
 * removed at cleanup unless committed (a second call for the same OUTPUT
 * replaces the first).  With FD, the file stays open for writing there.
 * Such files left by a killed run (its PID gone) are removed first.
 * NULL after an error naming OUTPUT.
 */
char *tmp_output_create(const char *output, int *fd);
/* Rename the temporary output onto OUTPUT; returns 0 or an error. */
int tmp_output_commit(const char *output);
/* Remove what the run created now (safe to call more than once). */
void tmp_cleanup(void);
/* Same, using only async-signal-safe calls (for signal handlers). */
void tmp_cleanup_from_signal(void);

#endif
