#!/bin/sh
# Debug info through lto-ld's LTO: a program compiled with -g and linked
# through a whole-program ld -r (where lto-ld edits the symbol table:
# debug anchors made local, statics given their source names back) keeps
# its source lines, so gdb still shows, for each function, the file and
# line it starts at, as for the kernel's vmlinux with DEBUG_INFO.  A copy
# without debug info shows that the probe can fail.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c: main, a flatten function (what lto-ld's compiler plugin changes),
# a static that two units' code reaches; b.c: another unit's function
cat > a.c <<'C'
int big(int);
static __attribute__((noinline)) int local_big(int x)
{
	volatile int v = x;
	for (int i = 0; i < 8; i++) { v += i; v *= 3; v ^= v >> 2; }
	return v;
}
__attribute__((flatten, noinline)) int top(int x)
{
	return local_big(x) + big(x);
}
int main(int argc, char **argv)
{
	(void)argv;
	return top(argc) == 12345;
}
C
cat > b.c <<'C'
__attribute__((noinline)) int big(int x)
{
	volatile int v = x;
	for (int i = 0; i < 8; i++) { v += i; v *= 5; v ^= v << 3; }
	return v;
}
C

# lines PROGRAM FUNCTION...: "FUNCTION FILE:LINE" for each FUNCTION, the
# line gdb gives the function's first address (nm's), or "FUNCTION none"
lines() {
	prog=$1; shift
	set -- "$prog" $(for f in "$@"; do
		addr=$("${prefix}nm" "$prog" | awk -v f="$f" '$3 == f && $2 ~ /^[tT]$/ { print $1; exit }')
		echo "$f=${addr:-0}"
	done)
	prog=$1; shift
	for fa in "$@"; do
		echo "-ex"
		echo "info line *0x${fa#*=}"
	done > gdb.args
	# (one gdb, one line of output per function)
	xargs -d '\n' -a gdb.args gdb -nx -batch "$prog" 2>/dev/null > gdb.out
	i=0
	for fa in "$@"; do
		i=$((i + 1))
		sed -n "${i}p" gdb.out | sed -nE "s/^Line ([0-9]+) of \"([^\"]*\/)?([^\"/]+)\".*/${fa%%=*} \\3:\\1/p; /^No line/s/.*/${fa%%=*} none/p"
	done
}

# line_of FILE TEXT: the line of FILE that TEXT starts
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1; }

# end_of FILE LINE: the line of the first "}" of FILE from LINE on (the
# function's end)
end_of() { awk -v from="$2" 'NR >= from && $0 == "}" { print NR; exit }' "$1"; }

scenario() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	for f in a b; do "${prefix}gcc" -g -O2 -flto -c "../$f.c" -o "$f.o" || return; done
	expect "$name: whole-program ld -r with -g" \
		"$BIN/${prefix}lto-ld" -r --lto-whole-program --lto-keep-symbol=main -o wp.o a.o b.o
	expect "$name: the program links" "${prefix}gcc" -o prog wp.o
	# each function's first address is on a line of its own source
	# (which one depends on the scheduling of its first instructions)
	got=$(lines prog main top local_big big | tr '\n' ';')
	for f in main top local_big big; do
		case $f in
			main) src=a.c start=$(line_of ../a.c 'int main(') ;;
			top) src=a.c start=$(line_of ../a.c 'int top(') ;;
			local_big) src=a.c start=$(line_of ../a.c 'int local_big(') ;;
			big) src=b.c start=$(line_of ../b.c 'int big(') ;;
		esac
		line=$(printf '%s\n' "$got" | tr ';' '\n' | sed -n "s/^$f $src:\\([0-9]*\\)\$/\\1/p")
		end=$(end_of "../$src" "$start")
		expect "$name: gdb: $f starts on a line of $src's $f (lines $start-$end; got: $(printf '%s' "$got" | tr ';' '\n' | grep "^$f "))" \
			eval '[ -n "$line" ] && [ "$line" -ge "$start" ] && [ "$line" -le "$end" ]'
	done
	"${prefix}strip" --strip-debug -o prog.nodebug prog
	got=$(lines prog.nodebug main top | tr '\n' ' ')
	expect "$name: without debug info the probe finds no line ($got)" \
		eval '[ "$got" = "main none top none " ]'
	cd ..
}

if have gdb; then
	for_each_target scenario
else
	missing gdb
fi
done_testing
