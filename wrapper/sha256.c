#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* One round: A..H rotate by name (no copying), T1 lands in D and H. */
#define ROUND(a, b, c, d, e, f, g, h, k, w) do {				\
	uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +		\
		      ((e & f) ^ (~e & g)) + (k) + (w);				\
	uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +		\
		      ((a & b) ^ (a & c) ^ (b & c));				\
	d += t1;								\
	h = t1 + t2;								\
} while (0)

static void compress_generic(uint32_t state[8], const unsigned char *p, size_t blocks)
{
	for (; blocks--; p += 64) {
		uint32_t w[64];
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

		for (int i = 0; i < 16; i++)
			w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
			       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
		for (int i = 16; i < 64; i++) {
			uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);

			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		for (int i = 0; i < 64; i += 8) {
			ROUND(a, b, c, d, e, f, g, h, round_constants[i], w[i]);
			ROUND(h, a, b, c, d, e, f, g, round_constants[i + 1], w[i + 1]);
			ROUND(g, h, a, b, c, d, e, f, round_constants[i + 2], w[i + 2]);
			ROUND(f, g, h, a, b, c, d, e, round_constants[i + 3], w[i + 3]);
			ROUND(e, f, g, h, a, b, c, d, round_constants[i + 4], w[i + 4]);
			ROUND(d, e, f, g, h, a, b, c, round_constants[i + 5], w[i + 5]);
			ROUND(c, d, e, f, g, h, a, b, round_constants[i + 6], w[i + 6]);
			ROUND(b, c, d, e, f, g, h, a, round_constants[i + 7], w[i + 7]);
		}
		state[0] += a, state[1] += b, state[2] += c, state[3] += d;
		state[4] += e, state[5] += f, state[6] += g, state[7] += h;
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * x86's SHA extensions: the cache hashes every input of a link (a kernel's
 * vmlinux.o is over 100 MB, hashed on each kallsyms pass), and these do it
 * about ten times faster than the C above.  The state is kept as the
 * instructions want it: ABEF in one register, CDGH in the other.
 */
#define SHA_X86 __attribute__((target("sha,sse4.1,ssse3")))

/* The message words of group G (W[4G..4G+3]) from the four before it. */
SHA_X86 static __m128i next_words(__m128i w4, __m128i w3, __m128i w2, __m128i w1)
{
	__m128i s0 = _mm_sha256msg1_epu32(w4, w3);

	return _mm_sha256msg2_epu32(_mm_add_epi32(s0, _mm_alignr_epi8(w1, w2, 4)), w1);
}

SHA_X86 static void compress_x86(uint32_t state[8], const unsigned char *p, size_t blocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

	for (; blocks--; p += 64) {
		__m128i abef_in = abef, cdgh_in = cdgh, w[4];

		for (int g = 0; g < 16; g++) {
			__m128i msg;

			if (g < 4)
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
					(const __m128i *)(p + 16 * g)), bswap);
			else
				w[g % 4] = next_words(w[g % 4], w[(g + 1) % 4],
						      w[(g + 2) % 4], w[(g + 3) % 4]);
			msg = _mm_add_epi32(w[g % 4], _mm_loadu_si128(
				(const __m128i *)&round_constants[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(msg, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
	}
	/* back to A..H in order: FEBA and DCHG, then DCBA and HGFE */
	abef = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(abef, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(cdgh, abef, 8));
}

static bool cpu_has_sha(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#else
static bool cpu_has_sha(void)
{
	return false;
}
#define compress_x86 compress_generic
#endif

/* -1: not asked yet; then whether the CPU's SHA instructions are used */
static int hardware = -1;

bool sha256_use_hardware(bool use)
{
	hardware = use && cpu_has_sha();
	return hardware;
}

static void compress(uint32_t state[8], const unsigned char *p, size_t blocks)
{
	if (hardware < 0)
		sha256_use_hardware(true);
	if (hardware)
		compress_x86(state, p, blocks);
	else
		compress_generic(state, p, blocks);
}

void sha256_init(struct sha256 *h)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(h->state, initial, sizeof(initial));
	h->length = 0;
}

void sha256_update(struct sha256 *h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t used = h->length % 64;

	h->length += len;
	if (used) {
		size_t take = 64 - used < len ? 64 - used : len;

		memcpy(h->block + used, p, take);
		p += take;
		len -= take;
		if (used + take < 64)
			return;
		compress(h->state, h->block, 1);
	}
	compress(h->state, p, len / 64);
	p += len / 64 * 64;
	memcpy(h->block, p, len % 64);
}

void sha256_final(struct sha256 *h, unsigned char out[SHA256_LEN])
{
	uint64_t bits = h->length * 8;
	unsigned char pad[72] = { 0x80 };
	size_t pad_len = 64 - (h->length + 8) % 64;

	if (pad_len == 0)
		pad_len = 64;
	for (int i = 0; i < 8; i++)
		pad[pad_len + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(h, pad, pad_len + 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(h->state[i] >> 24);
		out[4 * i + 1] = (unsigned char)(h->state[i] >> 16);
		out[4 * i + 2] = (unsigned char)(h->state[i] >> 8);
		out[4 * i + 3] = (unsigned char)h->state[i];
	}
}

void sha256_hex(const unsigned char digest[SHA256_LEN], char out[SHA256_HEX_LEN + 1])
{
	for (int i = 0; i < SHA256_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

int sha256_update_fd(struct sha256 *h, int fd, uint64_t offset, uint64_t len)
{
	unsigned char buf[65536];

	while (len > 0) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t got = pread(fd, buf, want, (off_t)offset);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			return -1;
		}
		sha256_update(h, buf, (size_t)got);
		offset += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return 0;
}

int sha256_update_file(struct sha256 *h, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc, saved;

	if (fd < 0)
		return -1;
	rc = fstat(fd, &st) ? -1 : sha256_update_fd(h, fd, 0, (uint64_t)st.st_size);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}
