#!/bin/sh
# What lto-ld refuses, and what it must never do to files it did not
# create: an output that names an input, a trailing "--", a real ld that
# leads back to lto-ld, temporary names planted in advance.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

seed_ir_objects_private_tmp
ld=$BIN/lto-ld

# no_leftovers DESCRIPTION: no hidden temporary beside the outputs, none in $TMPDIR
no_leftovers() {
	left=$(ls -A . | grep -E 'lto-ld-'; ls -A tmp)
	expect "$1: no temporary file left" test -z "$left"
}

# unchanged FILE: FILE is still the copy saved in FILE.orig
unchanged() { cmp -s "$1" "$1.orig"; }

# ---- a trailing "--" (ld reads nothing after it) ----
rm -f out a.out
echo 'not an output' > a.out
cp a.out a.out.orig
expect "a trailing -- links to -o out" "$ld" -e main -o out foo.o bar.o main.o --
expect "...out written, ./a.out untouched" eval '[ -f out ] && unchanged a.out'
no_leftovers "trailing --"
rm -f out
expect_fails "inputs after -- are not read (as ld)" "undefined reference to .foo" \
	"$ld" -e main -o out main.o -- foo.o
expect "...no output, ./a.out untouched" eval '[ ! -e out ] && unchanged a.out'
rm -f a.out a.out.orig

# ---- -o without its argument: ld's own message ----
expected=$(ld -e main foo.o main.o -o 2>&1 | sed 's/^[^:]*: //')
out=$("$ld" -e main foo.o main.o -o 2>&1); rc=$?
got=$(printf '%s\n' "$out" | sed 's/^[^:]*: //')
expect "-o without a file: ld's message" eval '[ $rc -ne 0 ] && [ "$got" = "$expected" ]' ||
	diag "$out" "expected: $expected"
expect "...no a.out written" test ! -e a.out
no_leftovers "-o without a file"

# ---- an output that names an input ----
for f in foo bar main; do cp "$f.o" "$f.o.orig"; done
expect_fails "-o main.o with main.o an input" \
	"input file 'main.o' is the same as output file" \
	"$ld" -e main -o main.o foo.o bar.o main.o
expect "...main.o untouched" unchanged main.o
ln -s main.o link.o
expect_fails "-o through a symlink and ./ to an input" \
	"input file 'main.o' is the same as output file './link.o'" \
	"$ld" -e main -o ./link.o foo.o bar.o main.o
expect "...main.o and the link untouched" eval 'unchanged main.o && [ -L link.o ]'
expect_fails "thin ld -r -o foo.o foo.o bar.o" \
	"input file 'foo.o' is the same as output file 'foo.o'" \
	"$ld" -r --lto-partial=thin -o foo.o foo.o bar.o
expect "...foo.o untouched" unchanged foo.o
expect_fails "native ld -r -o ./bar.o foo.o bar.o" \
	"input file 'bar.o' is the same as output file './bar.o'" \
	"$ld" -r -o ./bar.o foo.o bar.o
expect "...bar.o untouched" unchanged bar.o
rm -f out
expect_fails "--lto-report=foo.o, an input" \
	"--lto-report=foo.o: that is the input file 'foo.o'" \
	"$ld" -e main --lto-report=foo.o -o out foo.o bar.o main.o
expect "...foo.o untouched, no output" eval 'unchanged foo.o && [ ! -e out ]'
expect_fails "--lto-report=./out -o out: the report is the output" \
	"--lto-report=./out: that is the link's output 'out'" \
	"$ld" -e main --lto-report=./out -o out foo.o bar.o main.o
expect "...no output" test ! -e out
expect_fails "-o gone.o gone.o, missing: reported as missing" "gone.o: No such file" \
	"$ld" -e main -o gone.o foo.o gone.o
no_leftovers "output naming an input"

# ---- a real ld that runs lto-ld again ----
cat > loop-ld <<EOF
#!/bin/sh
exec "$ld" "\$@"
EOF
chmod +x loop-ld
# (timeout: before the guard this looped for ever)
LTO_LD_REAL_LD=$WORK/loop-ld expect_fails "LTO_LD_REAL_LD runs lto-ld: no loop" \
	"lto-ld was run again by .*loop-ld" \
	timeout 20 "$ld" -e main -o out foo.o bar.o main.o
gcc -c foo.c -o native.o
mkdir pathbin && cp loop-ld pathbin/ld
PATH=$WORK/pathbin:$PATH expect_fails "PATH's ld runs lto-ld: no loop (no IR, exec)" \
	"lto-ld was run again by .*pathbin/ld" \
	timeout 20 "$ld" -r -o out native.o
expect "...no output" test ! -e out
no_leftovers "real ld loop"

# ---- @files: bounded work, no bytes dropped ----
# seven levels, each naming the next ten times: 10^7 arguments
echo "foo.o" > at0.rsp
for l in 1 2 3 4 5 6 7; do
	prev=$((l - 1)); : > "at$l.rsp"
	for k in 0 1 2 3 4 5 6 7 8 9; do echo "@at$prev.rsp" >> "at$l.rsp"; done
done
rm -f out
expect_fails "more than 2,000 @files (as ld)" "at[0-9].rsp: too many @-files encountered" \
	timeout 60 "$ld" -e main -o out @at7.rsp bar.o main.o
expect "...no output" test ! -e out
# ld reads 1,999 @files and refuses the 2,000th: so does lto-ld
: > many.rsp; i=0
while [ $i -lt 1998 ]; do echo "@at0.rsp" >> many.rsp; i=$((i + 1)); done
expect "1,999 @files in all are accepted (as ld)" \
	"$ld" -e main -o out --allow-multiple-definition @many.rsp bar.o main.o
rm -f out
echo "@at0.rsp" >> many.rsp
expect_fails "the 2,000th @file is refused (as ld)" "at0.rsp: too many @-files encountered" \
	"$ld" -e main -o out --allow-multiple-definition @many.rsp bar.o main.o
gcc -c foo.c -o n-foo.o && gcc -c main.c -o n-main.o && echo n-foo.o > n0.rsp
sed 's/at0/n0/' many.rsp > n-many.rsp
expect_fails "...and so does ld itself" "too many @-files encountered" \
	ld -e main -o out --allow-multiple-definition @n-many.rsp n-main.o
rm -f out
printf 'foo.o\nbar.o\0 -o victim\nmain.o\n' > nul.rsp
expect_fails "a NUL byte in an @file: refused, naming file and line" "nul.rsp:2: NUL byte" \
	"$ld" -e main -o out @nul.rsp
expect "...no output" test ! -e out
printf 'foo.o\r\nbar.o\r\nmain.o' > crlf.rsp
expect "an @file with CRLF lines and no final newline" "$ld" -e main -o out @crlf.rsp
rm -f out
no_leftovers "@files"

# ---- temporary names planted in advance (symlinks to a victim) ----
# The run's PID is known before it starts: python plants links under the
# names lto-ld 0e33e24 used (.NAME.lto-ld-PID), then becomes lto-ld.
plant() {
	python3 -c '
import os, sys
pid = os.getpid()
for name in sys.argv[1].split(","):
    os.symlink("victim", ".%s.lto-ld-%d" % (name, pid))
os.execv(sys.argv[2], sys.argv[2:])' "$@"
}
echo 'precious' > victim
cp victim victim.orig
rm -f out
expect "link with symlinks planted at the old temporary names" \
	plant out "$ld" -e main -o out foo.o bar.o main.o
expect "...victim untouched, out a regular file" eval 'unchanged victim && [ -f out ] && [ ! -L out ]'
rm -f .out.lto-ld-* out
if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	expect "report with symlinks planted at the old temporary names" \
		plant out,rep.txt "$ld" -e main --lto-report=rep.txt -o out foo.o bar.o main.o
	expect "...victim untouched, rep.txt a regular file" eval 'unchanged victim && [ -f rep.txt ] && [ ! -L rep.txt ]'
	rm -f .out.lto-ld-* .rep.txt.lto-ld-* out rep.txt
else
	skip_missing binutils-dev "lto-ld-plugin.so not built: no --lto-report"
fi
expect "thin ld -r with symlinks planted at the old temporary names" \
	plant th.a "$ld" -r --lto-partial=thin -o th.a foo.o bar.o
expect "...victim untouched, th.a a regular file" eval 'unchanged victim && [ -f th.a ] && [ ! -L th.a ]'
rm -f .th.a.lto-ld-*
no_leftovers "planted symlinks"

done_testing
