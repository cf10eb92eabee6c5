/*
 * Shared by the libFuzzer harnesses (scripts/fuzz.sh builds and runs
 * them): the input goes to a file, since every parser under test reads
 * files.  Each harness runs in a directory of its own (fuzz.sh), so
 * relative names are private to it.
 */
#ifndef LTO_LD_FUZZ_H
#define LTO_LD_FUZZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* Write DATA to PATH (replacing it); aborts when it cannot. */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t put = write(fd, data + done, size - done);

		if (put <= 0)
			abort();
		done += (size_t)put;
	}
	close(fd);
}

#endif
