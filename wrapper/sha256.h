/* SHA-256 (FIPS 180-4), for the LTRANS cache's keys and entry checks. */
#ifndef LTO_LD_SHA256_H
#define LTO_LD_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
#define SHA256_HEX_LEN (2 * SHA256_LEN)

struct sha256 {
	uint32_t state[8];
	uint64_t length;		/* bytes hashed so far */
	unsigned char block[64];	/* the bytes of the block not full yet */
};

/*
 * Whether the CPU's SHA instructions are used (by default when it has
 * them); USE false keeps to the portable code.  For the tests, which
 * check both.
 */
bool sha256_use_hardware(bool use);

void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t len);
void sha256_final(struct sha256 *h, unsigned char out[SHA256_LEN]);
/*
 * Hash LEN bytes of FD from OFFSET into H.  0, or -1 when they are not
 * all there or cannot be read (errno; EIO for a file that ends first).
 */
int sha256_update_fd(struct sha256 *h, int fd, uint64_t offset, uint64_t len);
/* Hash the whole file PATH into H.  0, or -1 with errno set. */
int sha256_update_file(struct sha256 *h, const char *path);
/* OUT gets the 64 lower-case hex digits of DIGEST and a NUL. */
void sha256_hex(const unsigned char digest[SHA256_LEN], char out[SHA256_HEX_LEN + 1]);

#endif
