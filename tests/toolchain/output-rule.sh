#!/bin/sh
# One rule for every output lto-ld writes, the link's and the report:
# a regular file (or a new name) is written under a temporary name and
# renamed into place; a symbolic link, a device or a FIFO is handed over
# in place to what writes it: the report goes through the link, and ld
# does as it always does (it replaces a link to a non-empty file); a
# directory is an error naming it.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

seed_ir_objects_private_tmp
ld=$BIN/lto-ld

echo old > target.o
ln -s target.o out
expect "a link to a symbolic link" "$ld" -e main -o out foo.o bar.o main.o
[ ! -L out ] && [ -x out ] && [ "$(cat target.o)" = old ] &&
	ok "...as GNU ld: the link is replaced by the output, its target untouched" ||
	not_ok "...as GNU ld: the link is replaced by the output, its target untouched"

rm -f out; echo old > target.o; ln -s target.o out
expect "a thin ld -r to a symbolic link" "$ld" -r --lto-partial=thin -o out foo.o bar.o
[ ! -L out ] && [ "$(head -c 8 out)" = '!<thin>' ] && [ "$(cat target.o)" = old ] &&
	ok "...as GNU ld: the link is replaced by the archive, its target untouched" ||
	not_ok "...as GNU ld: the link is replaced by the archive, its target untouched"

if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	echo old > target.txt
	ln -s target.txt r.txt
	expect "a report to a symbolic link" "$ld" -e main --lto-report=r.txt -o prog foo.o bar.o main.o
	[ -L r.txt ] && grep -q 'IR' target.txt &&
		ok "...written through it: the link stays, its target holds the report" ||
		not_ok "...written through it: the link stays, its target holds the report"
else
	skip_missing binutils-dev "lto-ld-plugin.so not built"
fi

mkdir outdir
expect_fails "a link to a directory: an error naming it" "cannot write outdir: Is a directory" \
	"$ld" -e main -o outdir foo.o bar.o main.o

done_testing
