/*
 * SHA-256 against FIPS 180-4's examples and the padding edges (55, 56
 * and 64 bytes), whole and fed in pieces: the LTRANS cache's keys and
 * entry checks rest on it.
 */
#include "../../wrapper/sha256.h"
#include "tap.h"

#include <stdlib.h>

/* which code computes the digests: "portable" or "SHA instructions" */
static const char *code = "portable";

static void digest_of(const char *data, size_t len, size_t piece,
		      char hex[SHA256_HEX_LEN + 1])
{
	unsigned char digest[SHA256_LEN];
	struct sha256 h;

	sha256_init(&h);
	for (size_t done = 0; done < len; done += piece)
		sha256_update(&h, data + done, len - done < piece ? len - done : piece);
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
}

static void check(const char *name, const char *data, size_t len,
		  const char *want)
{
	char hex[SHA256_HEX_LEN + 1];
	size_t pieces[] = { len ? len : 1, 1, 7, 64 };

	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		digest_of(data, len, pieces[i], hex);
		is_str(hex, want, "%s: %s, in pieces of %zu bytes", code, name, pieces[i]);
	}
}

/* FIPS 180-4's examples and the padding edges, with the code in use. */
static void check_all(const char *zeros, const char *a_million)
{
	check("empty", "", 0,
	      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", "abc", 3,
	      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("the two-block example",
	      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check("55 zero bytes", zeros, 55,
	      "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7");
	check("56 zero bytes", zeros, 56,
	      "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb");
	check("64 zero bytes", zeros, 64,
	      "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b");
	check("a million 'a'", a_million, 1000000,
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
	char *zeros = calloc(1000000, 1), *a_million = malloc(1000000);

	if (!zeros || !a_million)
		return 99;
	memset(a_million, 'a', 1000000);
	/* the portable code, then the CPU's SHA instructions where it has them */
	sha256_use_hardware(false);
	check_all(zeros, a_million);
	if (sha256_use_hardware(true)) {
		code = "SHA instructions";
		check_all(zeros, a_million);
	}
	else
		tap_skip("this CPU has no SHA instructions: only the portable code checked");
	free(zeros);
	free(a_million);
	return tap_done();
}
