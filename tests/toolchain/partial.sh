#!/bin/sh
# ld -r with GCC IR in every mode (fat, thin, native, ir), each followed by a
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

	expect "$name: thin ld -r" "$ld" -r --lto-partial=thin -o thin.o foo.o bar.o
	expect "$name: thin output is a thin archive naming the inputs in order" \
		eval '[ "$(head -c 8 thin.o)" = "!<thin>" ] && [ "$(ar t thin.o | tr "\n" " ")" = "foo.o bar.o " ]'
	expect "$name: final link of the thin output" "$ld" -e main -o thin.exe thin.o main.o
	expect "$name: thin: LTO across the ld -r boundary removed foo and bar" \
		test "$("$nm" thin.exe | grep -Ec ' (foo|bar)$')" -eq 0

	expect "$name: native ld -r" "$ld" -r --lto-partial=native -o native.o foo.o bar.o
	expect "$name: native output is a relocatable object without IR" \
		eval 'readelf -h native.o | grep -q "REL (Relocatable" && ! readelf -SW native.o | grep -q gnu.lto_'
	expect "$name: final link of the native output" "$ld" -e main -o native.exe native.o main.o
	expect "$name: native: main linked" output_has ' T main$' "$nm" native.exe

	expect "$name: ir ld -r" "$ld" -r --lto-partial=ir -o ir.o foo.o bar.o
	# merged, not concatenated: one IR symbol table for both inputs
	expect "$name: ir output is one merged IR object" \
		eval '[ "$(readelf -SW ir.o | grep -c "\.gnu\.lto_\.symtab\.")" -eq 1 ] &&
		      readelf -SW ir.o | grep -q "\.gnu\.lto_bar\."'
	expect "$name: final link of the ir output" "$ld" -e main -o ir.exe ir.o main.o
	expect "$name: ir: LTO at the final link removed foo and bar" test "$("$nm" ir.exe | grep -Ec ' (foo|bar)$')" -eq 0

	expect "$name: fat ld -r" "$ld" -r --lto-partial=fat -o fat.o foo.o bar.o
	expect "$name: fat output is a native object carrying one merged IR object" \
		eval 'readelf -h fat.o | grep -q "REL (Relocatable" && readelf -SW fat.o | grep -q " \.text " &&
		      [ "$(readelf -SW fat.o | grep -c "\.gnu\.lto_\.symtab\.")" -eq 1 ] &&
		      ! readelf -sW fat.o | grep -q __gnu_lto_slim'
	expect "$name: final link of the fat output" "$ld" -e main -o fat.exe fat.o main.o
	expect "$name: fat: LTO at the final link removed foo and bar" test "$("$nm" fat.exe | grep -Ec ' (foo|bar)$')" -eq 0
	# ld without the plugin takes the native part, and says nothing
	"${prefix}gcc" -O2 -c ../main.c -o native-main.o
	out=$("${prefix}ld" -e main -o fat-plain.exe fat.o native-main.o 2>&1); rc=$?
	expect "$name: fat: plain ld links the native code, without a warning" \
		eval '[ $rc -eq 0 ] && [ -z "$out" ] && "$nm" fat-plain.exe | grep -q " T foo\$"' || diag "$out"

	"$ld" -r -o default.o foo.o bar.o
	expect "$name: the default mode is fat" \
		eval 'readelf -h default.o 2>/dev/null | grep -q "REL (Relocatable" && readelf -SW default.o | grep -q gnu.lto_ &&
		      readelf -SW default.o | grep -q " \.text "'
	LTO_LD_PARTIAL=thin "$ld" -r -o env.o foo.o bar.o
	expect "$name: LTO_LD_PARTIAL=thin selects thin" test "$(head -c 8 env.o)" = '!<thin>'
	expect_fails "$name: a bad LTO_LD_PARTIAL is an error" "LTO_LD_PARTIAL.*|unknown partial-link mode 'quick'" \
		env LTO_LD_PARTIAL=quick "$ld" -r -o env2.o foo.o bar.o

	# mixed IR and native inputs
	expect "$name: native ld -r of IR mixed with native code" \
		"$ld" -r --lto-partial=native -o mixed.o foo.o native-bar.o
	expect "$name: ...and its final link" "$ld" -e main -o mixed.exe mixed.o main.o
	expect "$name: thin ld -r of IR mixed with native code" \
		"$ld" -r --lto-partial=thin -o mixthin.o foo.o native-bar.o
	expect "$name: ...and its final link" "$ld" -e main -o mixthin.exe mixthin.o main.o
	out=$("$ld" -r -o mixfat.o foo.o native-bar.o 2>&1); rc=$?
	expect "$name: default mode with native code: native output, and says why" \
		eval '[ $rc -eq 0 ] && text_has "$out" "mixfat.o: the output cannot carry GCC IR (native-bar.o holds no GCC IR)" &&
		      ! readelf -SW mixfat.o | grep -q gnu.lto_' || diag "$out"
	expect "$name: ...and its final link" "$ld" -e main -o mixfat.exe mixfat.o main.o
	expect_fails "$name: ir mode refuses native inputs, naming them" "native-bar.o: holds no GCC IR" \
		"$ld" -r --lto-partial=ir -o mixir.o foo.o native-bar.o
	expect "$name: ...and leaves no output" test ! -e mixir.o

	# GCC's early-debug anchors (<file>.<hash>, weak hidden in .debug_info)
	# become local in native output: nm shows them as N, not W.
	for f in foo bar; do "${prefix}gcc" -O2 -g -flto -c "../$f.c" -o "g-$f.o"; done
	"$ld" -r --lto-partial=native -o g.o g-foo.o g-bar.o
	"$ld" -r -o g-fat.o g-foo.o g-bar.o
	# (the IR part keeps its own weak ones, in early-debug sections that
	# a link without LTO leaves out, as with gcc -ffat-lto-objects)
	"${prefix}gcc" -O2 -g -c ../main.c -o g-native-main.o
	"${prefix}gcc" -fno-lto -g -o g-fat.exe g-native-main.o g-fat.o
	expect "$name: ...and in the native part of fat output, the IR's early debug excluded" \
		eval '[ "$(readelf -sW g-fat.o | grep -Ec " LOCAL .* [a-z]+\.c\.[0-9a-f]+\$")" -eq 2 ] &&
		      [ "$(readelf -SW g-fat.exe | grep -c debuglto)" -eq 0 ]'
	"${prefix}gcc" -O2 -g -flto -r -flinker-output=nolto-rel -o g-ctl.o g-foo.o g-bar.o
	weak=$("$nm" g.o | grep -Ec ' W [a-z]+\.c\.[0-9a-f]+$')
	local=$("$nm" g.o | grep -Ec ' N [a-z]+\.c\.[0-9a-f]+$')
	ctl=$("$nm" g-ctl.o | grep -Ec ' W [a-z]+\.c\.[0-9a-f]+$')
	expect "$name: debug anchors are local in native -r output (gcc -r leaves $ctl weak)" \
		eval '[ "$weak" -eq 0 ] && [ "$local" -eq 2 ] && [ "$ctl" -eq 2 ]' ||
		diag "$weak weak, $local local, control $ctl"

	# An archive linked on demand cannot go into a thin archive: native instead.
	"${prefix}ar" rc --plugin "$("${prefix}gcc" -print-file-name=liblto_plugin.so)" libbar.a bar.o
	out=$("$ld" -r --lto-partial=thin -o fallback.o foo.o libbar.a 2>&1)
	expect "$name: thin ld -r with a library archive falls back to native, saying why" \
		eval 'text_has "$out" "libbar.a is an archive linked on demand" &&
		      readelf -h fallback.o 2>/dev/null | grep -q "REL (Relocatable"' || diag "$out"
	cd ..
}

for_each_target partial
done_testing
