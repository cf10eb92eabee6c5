#!/bin/sh
# ld -r with GCC IR in every mode (thin, native, ir), each followed by a
# final link; the default mode; LTO_LD_PARTIAL; mixed IR and native inputs.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources

# partial PREFIX NAME
partial() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld" nm=${prefix}nm
	for f in foo bar main; do
		"${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"
		"${prefix}gcc" -O2 -c "../$f.c" -o "native-$f.o"
	done

	check "$name: thin ld -r" "$ld" -r --lto-partial=thin -o thin.o foo.o bar.o
	if [ "$(head -c 8 thin.o)" = '!<thin>' ] && [ "$(ar t thin.o | tr '\n' ' ')" = "foo.o bar.o " ]; then
		ok "$name: thin output is a thin archive naming the inputs in order"
	else not_ok "$name: thin output is a thin archive naming the inputs in order"; fi
	check "$name: final link of the thin output" "$ld" -e main -o thin.exe thin.o main.o
	[ "$("$nm" thin.exe | grep -Ec ' (foo|bar)$')" -eq 0 ] &&
		ok "$name: thin: LTO across the ld -r boundary removed foo and bar" ||
		not_ok "$name: thin: LTO across the ld -r boundary removed foo and bar"

	check "$name: native ld -r" "$ld" -r --lto-partial=native -o native.o foo.o bar.o
	if readelf -h native.o | grep -q 'REL (Relocatable' && ! readelf -SW native.o | grep -q gnu.lto_; then
		ok "$name: native output is a relocatable object without IR"
	else not_ok "$name: native output is a relocatable object without IR"; fi
	check "$name: final link of the native output" "$ld" -e main -o native.exe native.o main.o
	"$nm" native.exe | grep -q ' T main$' && ok "$name: native: main linked" || not_ok "$name: native: main linked"

	check "$name: ir ld -r" "$ld" -r --lto-partial=ir -o ir.o foo.o bar.o
	# merged, not concatenated: one IR symbol table for both inputs
	if [ "$(readelf -SW ir.o | grep -c '\.gnu\.lto_\.symtab\.')" -eq 1 ] &&
	   readelf -SW ir.o | grep -q '\.gnu\.lto_bar\.'; then
		ok "$name: ir output is one merged IR object"
	else not_ok "$name: ir output is one merged IR object"; fi
	check "$name: final link of the ir output" "$ld" -e main -o ir.exe ir.o main.o
	[ "$("$nm" ir.exe | grep -Ec ' (foo|bar)$')" -eq 0 ] &&
		ok "$name: ir: LTO at the final link removed foo and bar" ||
		not_ok "$name: ir: LTO at the final link removed foo and bar"

	"$ld" -r -o default.o foo.o bar.o
	readelf -h default.o 2>/dev/null | grep -q 'REL (Relocatable' && ! readelf -SW default.o | grep -q gnu.lto_ &&
		ok "$name: the default mode is native" || not_ok "$name: the default mode is native"
	LTO_LD_PARTIAL=thin "$ld" -r -o env.o foo.o bar.o
	[ "$(head -c 8 env.o)" = '!<thin>' ] && ok "$name: LTO_LD_PARTIAL=thin selects thin" ||
		not_ok "$name: LTO_LD_PARTIAL=thin selects thin"
	check_fails "$name: a bad LTO_LD_PARTIAL is an error" "LTO_LD_PARTIAL.*|unknown partial-link mode 'quick'" \
		env LTO_LD_PARTIAL=quick "$ld" -r -o env2.o foo.o bar.o

	# mixed IR and native inputs
	check "$name: native ld -r of IR mixed with native code" \
		"$ld" -r --lto-partial=native -o mixed.o foo.o native-bar.o
	check "$name: ...and its final link" "$ld" -e main -o mixed.exe mixed.o main.o
	check "$name: thin ld -r of IR mixed with native code" \
		"$ld" -r --lto-partial=thin -o mixthin.o foo.o native-bar.o
	check "$name: ...and its final link" "$ld" -e main -o mixthin.exe mixthin.o main.o
	check_fails "$name: ir mode refuses native inputs, naming them" "native-bar.o: holds no GCC IR" \
		"$ld" -r --lto-partial=ir -o mixir.o foo.o native-bar.o
	[ ! -e mixir.o ] && ok "$name: ...and leaves no output" || not_ok "$name: ...and leaves no output"

	# GCC's early-debug anchors (<file>.<hash>, weak hidden in .debug_info)
	# become local in native output: nm shows them as N, not W.
	for f in foo bar; do "${prefix}gcc" -O2 -g -flto -c "../$f.c" -o "g-$f.o"; done
	"$ld" -r -o g.o g-foo.o g-bar.o
	"${prefix}gcc" -O2 -g -flto -r -flinker-output=nolto-rel -o g-ctl.o g-foo.o g-bar.o
	weak=$("$nm" g.o | grep -Ec ' W [a-z]+\.c\.[0-9a-f]+$')
	local=$("$nm" g.o | grep -Ec ' N [a-z]+\.c\.[0-9a-f]+$')
	ctl=$("$nm" g-ctl.o | grep -Ec ' W [a-z]+\.c\.[0-9a-f]+$')
	if [ "$weak" -eq 0 ] && [ "$local" -eq 2 ] && [ "$ctl" -eq 2 ]; then
		ok "$name: debug anchors are local in native -r output (gcc -r leaves $ctl weak)"
	else
		not_ok "$name: debug anchors are local in native -r output ($weak weak, $local local, control $ctl)"
	fi

	# An archive linked on demand cannot go into a thin archive: native instead.
	"${prefix}ar" rc --plugin "$("${prefix}gcc" -print-file-name=liblto_plugin.so)" libbar.a bar.o
	out=$("$ld" -r --lto-partial=thin -o fallback.o foo.o libbar.a 2>&1)
	if printf '%s' "$out" | grep -q 'libbar.a is an archive linked on demand' &&
	   readelf -h fallback.o 2>/dev/null | grep -q 'REL (Relocatable'; then
		ok "$name: thin ld -r with a library archive falls back to native, saying why"
	else not_ok "$name: thin ld -r with a library archive falls back to native, saying why"; diag "$out"; fi
	cd ..
}

partial "" host
if have arm-linux-gnueabihf-gcc; then partial arm-linux-gnueabihf- arm
else skip "arm-linux-gnueabihf-gcc not installed"; fi
done_testing
