/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTO_LD_TEST_CHECKS_H
#define LTO_LD_TEST_CHECKS_H

#include <linux/types.h>

int lto_ld_test_checks(bool inject_fault, int *total);

#endif
