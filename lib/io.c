#include "io.h"

#include <errno.h>
#include <unistd.h>

enum transfer { READ_AT, WRITE_AT, WRITE_ON };

/* One pread, pwrite, or write where FD stands, as HOW says. */
static ssize_t transfer_once(enum transfer how, int fd, char *buf, size_t len,
			     off_t off)
{
	switch (how) {
	case READ_AT:
		return pread(fd, buf, len, off);
	case WRITE_AT:
		return pwrite(fd, buf, len, off);
	case WRITE_ON:
		break;
	}
	return write(fd, buf, len);
}

/* All LEN bytes, through short transfers and EINTR; false when they are not. */
static bool transfer_full(enum transfer how, int fd, char *buf, size_t len,
			  off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t got = transfer_once(how, fd, buf + done, len - done,
					    off + (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		done += (size_t)got;
	}
	return true;
}

bool pread_full(int fd, void *buf, size_t len, off_t off)
{
	return transfer_full(READ_AT, fd, buf, len, off);
}

/* (the writes do not change BUF: transfer_full takes both directions) */
bool pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	return transfer_full(WRITE_AT, fd, (char *)buf, len, off);
}

bool write_full(int fd, const void *buf, size_t len)
{
	return transfer_full(WRITE_ON, fd, (char *)buf, len, 0);
}
