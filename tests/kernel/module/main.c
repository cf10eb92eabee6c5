// SPDX-License-Identifier: GPL-2.0
/*
 * lto_ld_test: the module the virt /init loads.  Its init runs the checks
 * and fails to load when one fails; fault=1 makes one check expect a
 * wrong value, so the suite can show it notices a module that fails.
 */
#include <linux/module.h>

#include "checks.h"

static bool fault;
module_param(fault, bool, 0444);
MODULE_PARM_DESC(fault, "make one check fail (tests the test suite)");

static int __init lto_ld_test_init(void)
{
	int total, failed = lto_ld_test_checks(fault, &total);

	if (failed) {
		pr_err("lto_ld_test: %d of %d checks failed\n", failed, total);
		return -EINVAL;
	}
	pr_info("lto_ld_test: all %d checks passed\n", total);
	return 0;
}
module_init(lto_ld_test_init);

static void __exit lto_ld_test_exit(void)
{
}
module_exit(lto_ld_test_exit);

MODULE_DESCRIPTION("lto-ld test module: exported kernel functions from LTO code");
MODULE_LICENSE("GPL");
