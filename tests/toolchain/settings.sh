#!/bin/sh
# Settings (lto-ld's environment variables) are read once, by one rule,
# and a value lto-ld cannot use is an error that names the variable, or
# the option when the value came from one.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

seed_ir_objects_private_tmp
ld=$BIN/lto-ld

expect_fails "LTO_LD_PARTIAL=foo: the error names the variable" \
	"LTO_LD_PARTIAL='foo': unknown partial-link mode" \
	env LTO_LD_PARTIAL=foo "$ld" -r -o env.o foo.o bar.o
expect_fails "--lto-partial=foo: the error names the option" \
	"--lto-partial='foo': unknown partial-link mode" \
	"$ld" -r --lto-partial=foo -o opt.o foo.o bar.o
expect_fails "--lto-partial foo (two arguments): the error names the option" \
	"--lto-partial='foo': unknown partial-link mode" \
	"$ld" -r --lto-partial foo -o opt.o foo.o bar.o
expect "--lto-partial wins over a bad LTO_LD_PARTIAL" \
	env LTO_LD_PARTIAL=foo "$ld" -r --lto-partial=native -o opt.o foo.o bar.o
expect "a bad LTO_LD_PARTIAL stops no final link (it does not use it)" \
	env LTO_LD_PARTIAL=foo "$ld" -e main -o prog foo.o bar.o main.o
expect_fails "LTO_LD_JOBS=0: the error names the variable" "LTO_LD_JOBS='0'" \
	env LTO_LD_JOBS=0 "$ld" -e main -o prog foo.o bar.o main.o
expect "LTO_LD_JOBS set to \"\" is unset" \
	env LTO_LD_JOBS= "$ld" -e main -o prog foo.o bar.o main.o

done_testing
