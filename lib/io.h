/* Reading and writing files in place: what lib/elf.c, the scanner and the cache share. */
#ifndef LTO_LD_IO_H
#define LTO_LD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Exactly LEN bytes at OFF of FD into BUF, through short reads and
 * EINTR; false when they are not all there (the file ends first) or
 * reading fails (errno).  Prints nothing, never exits: the plugin uses it.
 */
bool pread_full(int fd, void *buf, size_t len, off_t off);

/* Exactly LEN bytes of BUF to OFF of FD, as pread_full(); false on failure (errno). */
bool pwrite_full(int fd, const void *buf, size_t len, off_t off);

/*
 * Exactly LEN bytes of BUF to FD where it stands (a file written in
 * order, one opened O_APPEND), as pwrite_full().
 */
bool write_full(int fd, const void *buf, size_t len);

#endif
