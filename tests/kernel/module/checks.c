// SPDX-License-Identifier: GPL-2.0
/*
 * Calls into exported kernel functions whose results are known, so a
 * module built and loaded with LTO shows that the kernel's exports,
 * modpost's CRCs and the module's own LTO'd code agree.
 */
#include <linux/bsearch.h>
#include <linux/hex.h>
#include <linux/math.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "checks.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* expect: count a failed check, naming it */
static int expect(const char *what, long got, long want)
{
	if (got == want)
		return 0;
	pr_err("lto_ld_test: %s: got %ld, want %ld\n", what, got, want);
	return 1;
}

int lto_ld_test_checks(bool inject_fault, int *total)
{
	int values[] = { 42, -7, 1000, 3, 0 };
	int key = 1000, parsed = 0, failed = 0;
	int *hit;
	u8 bytes[2] = { 0, 0 };
	char *text;

	failed += expect("kstrtoint", kstrtoint("-1234", 10, &parsed) ?: parsed, -1234);
	failed += expect("memparse", (long)memparse("3k", NULL), 3072);
	failed += expect("int_sqrt", (long)int_sqrt(1000000), inject_fault ? 999 : 1000);
	sort(values, ARRAY_SIZE(values), sizeof(values[0]), cmp_int, NULL);
	failed += expect("sort", values[0] * 10000 + values[4], -7 * 10000 + 1000);
	hit = bsearch(&key, values, ARRAY_SIZE(values), sizeof(values[0]), cmp_int);
	failed += expect("bsearch", hit ? (long)(hit - values) : -1, 4);
	failed += expect("hex2bin", hex2bin(bytes, "c0de", 2) ?: bytes[0] << 8 | bytes[1], 0xc0de);
	text = kasprintf(GFP_KERNEL, "%s-%d", "lto", 12);
	failed += expect("kasprintf", text ? strcmp(text, "lto-12") : -1, 0);
	kfree(text);
	*total = 7;
	return failed;
}
