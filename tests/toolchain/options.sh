#!/bin/sh
# The ld command line as lto-ld reads it when IR is involved: -l and -L,
# -o in all its forms, @files with quoting and spaces, 10,000 inputs,
# parallel LTRANS (jobs, jobserver), -save-temps and clean-up.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources
ld=$BIN/lto-ld
for f in foo bar main; do gcc -O2 -flto -c "$f.c" -o "$f.o"; done
gcc-ar rcs libseed.a foo.o bar.o

only_main() { [ "$(nm "$1" | grep -Ec ' (foo|bar)$')" -eq 0 ] && nm "$1" | grep -q ' T main$'; }

expect "IR archive found through -L. -lseed" "$ld" -e main -o t1 main.o -L. -lseed
expect "...and optimized across it" only_main t1
expect "IR archive through -L . -l:libseed.a" "$ld" -e main -o t2 main.o -L . -l:libseed.a
expect "IR archive through --library-path=. --library=seed" "$ld" -e main -o t3 main.o --library-path=. --library=seed

expect "-oFILE" "$ld" -e main -ot4 foo.o bar.o main.o
expect "--output=FILE" "$ld" -e main --output=t5 foo.o bar.o main.o
expect "--output FILE" "$ld" -e main --output t6 foo.o bar.o main.o
expect "outputs written where -o said" eval '[ -f t4 ] && [ -f t5 ] && [ -f t6 ]'

mkdir "dir with spaces"
cp foo.o bar.o main.o "dir with spaces/"
printf '%s\n' "-e main" "'dir with spaces/foo.o'" '"dir with spaces/bar.o"' 'dir\ with\ spaces/main.o' > inner.rsp
printf '%s\n' "-o 'out with spaces'" "@inner.rsp" > outer.rsp
expect "nested @files with quoted paths holding spaces" "$ld" @outer.rsp
expect "...linked with LTO" only_main "out with spaces"

# 10,000 inputs: the IR link goes to ld through a response file.
mkdir many
i=0
while [ $i -lt 10000 ]; do
	cp -l foo.o "many/o$i.o" 2>/dev/null || cp foo.o "many/o$i.o"
	i=$((i + 1))
done
ls many/*.o > many.rsp
expect "10,000 inputs: thin ld -r" "$ld" -r --lto-partial=thin -o many.a @many.rsp
expect "...all 10,000 members listed" test "$(ar t many.a | wc -l)" -eq 10000
# ten thousand copies of foo(): --allow-multiple-definition keeps the first
expect "10,000 inputs on the command line of an IR link" \
	"$ld" -e main -o many.exe --allow-multiple-definition main.o bar.o $(cat many.rsp)
expect "...linked with LTO" only_main many.exe

# parallel LTRANS: job count and the make jobserver
out=$(LTO_LD_VERBOSE=1 LTO_LD_JOBS=3 "$ld" -e main -o j1 foo.o bar.o main.o 2>&1)
expect "LTO_LD_JOBS=3 gives -flto=3" text_has "$out" "'-flto=3'"
out=$(LTO_LD_VERBOSE=1 "$ld" -e main -o j2 foo.o bar.o main.o 2>&1)
expect "default job count is the number of CPUs" text_has "$out" "'-flto=$(nproc)'"
expect_fails "LTO_LD_JOBS=many is an error" "LTO_LD_JOBS='many'" env LTO_LD_JOBS=many "$ld" -e main -o j3 foo.o bar.o main.o
cat > Makefile <<MK
all:
	+LTO_LD_VERBOSE=1 $ld -e main -o j4 foo.o bar.o main.o 2> jobserver.log
MK
make -s -j2 >/dev/null 2>&1
expect "under make -j2 (recursive recipe) LTRANS uses the jobserver" grep -q "'-flto=jobserver'" jobserver.log ||
	diag "$(cat jobserver.log)"
cat > Makefile <<MK
all:
	LTO_LD_VERBOSE=1 $ld -e main -o j5 foo.o bar.o main.o 2> nojobserver.log
MK
make -s -j2 >/dev/null 2>&1
expect "without the jobserver fds, a job count is used" grep -q "'-flto=[0-9]" nojobserver.log ||
	diag "$(cat nojobserver.log)"

# temporary files: removed, or kept with -save-temps / LTO_LD_SAVE_TEMPS=1
mkdir tmp
TMPDIR=$WORK/tmp "$ld" -e main -o s1 foo.o bar.o main.o
expect "temporary directory removed after a link" test -z "$(ls -A tmp)"
TMPDIR=$WORK/tmp "$ld" -save-temps -e main -o s2 foo.o bar.o main.o 2> keep.log
kept=$(ls tmp | head -n 1)
expect "-save-temps keeps the resolution file and says where" \
	eval '[ -n "$kept" ] && [ -f "tmp/$kept/link.res" ] && grep -q "kept in" keep.log'
rm -rf tmp/*
TMPDIR=$WORK/tmp LTO_LD_SAVE_TEMPS=1 "$ld" -e main -o s3 foo.o bar.o main.o 2>/dev/null
expect "LTO_LD_SAVE_TEMPS=1 keeps them too" test -n "$(ls -A tmp)"
done_testing
