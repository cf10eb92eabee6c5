#include "io.h"

#include <errno.h>
#include <unistd.h>

bool pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t got = pread(fd, (char *)buf + done, len - done,
				    off + (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		done += (size_t)got;
	}
	return true;
}

bool pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t put = pwrite(fd, (const char *)buf + done, len - done,
				     off + (off_t)done);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		done += (size_t)put;
	}
	return true;
}

bool write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t put = write(fd, (const char *)buf + done, len - done);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		done += (size_t)put;
	}
	return true;
}
