#!/bin/sh
# --lto-report=FILE (LTO_LD_REPORT): for each IR object, the IR symbols
# it defined and what became of each.  Every report is checked against
# nm of the output it describes: what it says is kept must be defined
# there (under its name or a GCC clone's), what it says is inlined or
# removed must not be.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c defines three globals, b.c calls one, c.s (native) calls another
# (lib.sh's write_globals_sources).  m.c adds a main for final links: it
# calls entry, stores get_counter's address in a volatile pointer (both
# must stay) and calls scale (s.c, noinline) with a constant factor,
# which GCC turns into a clone, scale.constprop.N.
write_globals_sources
cat > s.c <<'C'
__attribute__((noinline)) int scale(int x, int k) { return x * k + (x >> 3) * k; }
C
cat > m.c <<'C'
int entry(int);
int scale(int, int);
int (*volatile fp)(void);
static int counter;
int get_counter(void) { return ++counter; }
int main(void) { fp = get_counter; return entry(3) + scale(1, 7) + scale(2, 7) + fp(); }
C

# fates REPORT: "LABEL<TAB>NAME" for each symbol line of a text report
fates() {
	awk '/^  [^ ]/ { line = substr($0, 3); n = split(line, p, /  +/);
		split(p[2], w, " "); print p[1] "\t" w[1] }' "$1"
}

# fate REPORT NAME: the label of NAME's line
fate() { fates "$1" | awk -F '\t' -v n="$2" '$2 == n { print $1 }'; }

# nm_check NM OUTPUT REPORT: the report's lines nm of OUTPUT contradicts
nm_check() {
	"$1" "$2" | awk 'NF == 3 && $2 !~ /^[Uwv]$/ { print $3 }' | sort -u > nm.defs
	fates "$3" | while IFS='	' read -r label name; do
		if grep -Eq "^$name(\.(lto_priv|constprop|isra|part|cold|localalias|clone)(\.[0-9]+)?)*\$" nm.defs; then
			in=yes
		else
			in=no
		fi
		case $label in
		kept*) [ $in = yes ] || echo "$name: '$label' but nm shows no definition" ;;
		"inlined everywhere" | removed) [ $in = no ] || echo "$name: '$label' but nm shows a definition" ;;
		*) echo "$name: unexpected '$label'" ;;
		esac
	done
}

# expect_fates DESC REPORT NM OUTPUT NAME=LABEL...: each NAME has LABEL, nm agrees
expect_fates() {
	desc=$1 rep=$2 nmprog=$3 output=$4
	shift 4
	bad=
	for want; do
		got=$(fate "$rep" "${want%%=*}")
		[ "$got" = "${want#*=}" ] || bad="$bad ${want%%=*}='$got'"
	done
	contra=$(nm_check "$nmprog" "$output" "$rep")
	expect "$desc" test -z "$bad$contra" || diag "wrong:$bad" "$contra" "$(cat "$rep")"
}

# has_lines FILE LINE...: each LINE (a pattern) matches a whole line of FILE
has_lines() {
	has_lines_file=$1; shift
	for has_lines_line; do grep -qx -- "$has_lines_line" "$has_lines_file" || return 1; done
}

# headers REPORT: the per-object count lines of a text report
headers() { grep -E '^[^ ].*: [0-9]+ defined, ' "$1"; }

# scenario PREFIX NAME (for_each_target)
scenario() {
	prefix=$1 name=$2
	asm_syntax "$name"
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld" nm="${prefix}nm"
	for f in a b s m; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"; done
	printf '\t.text\n\t.globl from_asm\nfrom_asm:\n\t%s asm_ref_target\n' "$call" > c.s
	"${prefix}as" -o c.o c.s

	if "$ld" -r --lto-whole-program --lto-report=wp.txt -o wp.o a.o b.o c.o 2>err.txt; then
		expect_fates "$name: whole-program ld -r: asm_ref_target kept (non-IR reference), used_global inlined everywhere, unused_global removed" \
			wp.txt "$nm" wp.o "asm_ref_target=kept (non-IR reference)" \
			"used_global=inlined everywhere" "unused_global=removed" "entry=removed"
		expect "$name: whole-program ld -r: the mode, an object's counts and the totals" \
			has_lines wp.txt 'lto-ld report: wp.o (relocatable whole-program, native)' \
			'a.o: 3 defined, 1 kept, 1 inlined everywhere, 1 removed' \
			'totals: 2 objects, 4 defined, 1 kept, 1 inlined everywhere, 2 removed'
	else
		not_ok "$name: whole-program ld -r with --lto-report"; diag "$(cat err.txt)"
	fi

	"$ld" -r --lto-whole-program --lto-keep-symbol=entry --lto-report=keep.txt -o keep.o a.o b.o c.o
	expect_fates "$name: --lto-keep-symbol=entry: entry kept (keep set 'entry'), used_global inlined everywhere" \
		keep.txt "$nm" keep.o "entry=kept (keep set 'entry')" \
		"used_global=inlined everywhere" "unused_global=removed" \
		"asm_ref_target=kept (non-IR reference)"

	printf '# kept for the final link\nent*\n\nunused_*\n' > keep.lst
	"$ld" -r --lto-whole-program --lto-keep=keep.lst --lto-report=keepf.txt -o keepf.o a.o b.o c.o
	expect_fates "$name: --lto-keep=FILE: the report names the file, line and glob" \
		keepf.txt "$nm" keepf.o "entry=kept (keep set keep.lst:2 'ent*')" \
		"unused_global=kept (keep set keep.lst:4 'unused_*')"

	"$ld" -r --lto-report=plain.txt -o plain.o a.o b.o c.o
	"$ld" -r -o plain-norep.o a.o b.o c.o
	expect_fates "$name: plain ld -r: exported (asm_ref_target: non-IR reference)" \
		plain.txt "$nm" plain.o "unused_global=kept (exported)" \
		"used_global=kept (exported)" "entry=kept (exported)" \
		"asm_ref_target=kept (non-IR reference)"
	expect "$name: --lto-report changes nothing in the output" test "$("$nm" plain.o)" = "$("$nm" plain-norep.o)"

	if "$ld" -e main --lto-report=prog.txt -o prog a.o b.o c.o s.o m.o 2>err.txt; then
		expect_fates "$name: final link: main kept, unused_global removed, used_global inlined everywhere, clones and address-taken still emitted" \
			prog.txt "$nm" prog "main=kept (non-IR reference)" \
			"asm_ref_target=kept (non-IR reference)" "unused_global=removed" \
			"used_global=inlined everywhere" "get_counter=kept (still emitted)" \
			"fp=kept (still emitted)" "scale=kept (still emitted)"
		expect "$name: final link: scale is named as the output has it (scale.constprop.N)" \
			eval 'grep -Eq "^  kept \(still emitted\) +scale \(as scale\.constprop\.[0-9]+\)\$" prog.txt &&
			      has_lines prog.txt "lto-ld report: prog (final)"' || diag "$(cat prog.txt)"
	else
		not_ok "$name: final link with --lto-report"; diag "$(cat err.txt)"
	fi

	"$ld" -s -e main --lto-report=strip.txt -o strip a.o b.o c.o s.o m.o
	expect "$name: stripped output: internal definitions are only 'internalized'" \
		eval '[ "$(fate strip.txt used_global)" = "internalized (the output has no symbol table)" ] &&
		      [ "$(fate strip.txt main)" = "kept (non-IR reference)" ]' || diag "$(cat strip.txt)"

	rm -f lib.a libthin.a
	"$BIN/${prefix}lto-ar" rcs lib.a s.o a.o
	"$BIN/${prefix}lto-ar" rcsT libthin.a s.o a.o
	"$ld" -r --lto-whole-program --lto-report=ar.txt -o ar.o b.o c.o lib.a
	"$ld" -r --lto-whole-program --lto-report=thin.txt -o thin.o b.o c.o libthin.a
	expect "$name: archive members are named archive(member), regular and thin" \
		eval 'has_lines ar.txt "lib\.a(a\.o): 3 defined, 1 kept, 1 inlined everywhere, 1 removed" &&
		      has_lines thin.txt "libthin\.a(a\.o): 3 defined, 1 kept, 1 inlined everywhere, 1 removed" &&
		      [ -z "$(nm_check "$nm" ar.o ar.txt)$(nm_check "$nm" thin.o thin.txt)" ]' || diag "$(cat ar.txt thin.txt)"

	# JSON: the same link as keep.txt; the counts must be the text's
	"$ld" -r --lto-whole-program --lto-keep-symbol=entry --lto-report=keep.json -o keepj.o a.o b.o c.o
	if python3 - keep.json > json-headers.txt 2>json.err <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["mode"] == "relocatable whole-program" and r["output"] == "keepj.o"
fates = ["kept", "inlined_everywhere", "removed", "not_prevailing", "internalized"]
total = {k: 0 for k in fates}
for o in r["objects"]:
    c = {k: sum(s["fate"] == k.replace("_", " ") for s in o["symbols"]) for k in fates}
    assert len(o["symbols"]) == o["defined"], o
    assert all(c[k] == o[k] for k in fates), o
    for k in fates:
        total[k] += c[k]
    print("%s: %d defined, %d kept, %d inlined everywhere, %d removed"
          % (o["name"], o["defined"], o["kept"], o["inlined_everywhere"], o["removed"]))
t = r["totals"]
assert t["objects"] == len(r["objects"]) and all(t[k] == total[k] for k in fates), t
e = [s for o in r["objects"] for s in o["symbols"] if s["name"] == "entry"][0]
assert e["fate"] == "kept" and e["reason"] == "keep set" and e["keep_entry"] == "entry", e
assert r["native_objects"] == [{"name": "c.o", "defines": ["from_asm"]}], r["native_objects"]
PY
	then
		headers keep.txt > text-headers.txt
		expect "$name: the JSON report parses and has the text report's counts; c.o, native, defines from_asm" \
			eval 'cmp -s json-headers.txt text-headers.txt &&
			      has_lines keep.txt "native objects (without IR): 1, defining 1 symbols"' ||
			diag "$(cat json-headers.txt text-headers.txt)"
	else
		not_ok "$name: the JSON report parses and is consistent"; diag "$(cat json.err keep.json)"
	fi

	# an IR ld -r output: what is in it is read from its IR symbol table
	"$ld" -r --lto-partial=ir --lto-whole-program --lto-report=ir.txt -o ir.o a.o b.o
	expect "$name: --lto-partial=ir: the report agrees with the merged IR's symbols" \
		eval 'has_lines ir.txt "lto-ld report: ir.o (relocatable whole-program, ir)" && [ -n "$(fates ir.txt)" ] &&
		      [ -z "$(nm_check "$BIN/${prefix}lto-nm" ir.o ir.txt)" ]' ||
		diag "$(cat ir.txt)" "$(nm_check "$BIN/${prefix}lto-nm" ir.o ir.txt)"
	cd ..
}

for_each_target scenario

cd host || exit 99
L=$BIN/lto-ld

# Names that need escaping, in JSON and in the plugin's list: an object
# whose file name holds a quote, a backslash and a tab.
weird=$(printf 'we"ird\\b\tx.o')
cp b.o "$weird"
"$L" -r --lto-whole-program --lto-report=weird.json -o weird.o a.o "$weird" c.o; rc=$?
names_back='import json, sys; r = json.load(open(sys.argv[1])); assert [o["name"] for o in r["objects"]] == ["a.o", sys.argv[2]], r'
expect "JSON: a file name with a quote, a backslash and a tab comes back unchanged" \
	eval '[ $rc -eq 0 ] && python3 -c "$names_back" weird.json "$weird"' || diag "$(cat weird.json 2>&1)"

# The environment variable; the option wins over it.
rm -f env.txt opt.txt
LTO_LD_REPORT=env.txt "$L" -r --lto-whole-program -o env.o a.o b.o c.o
LTO_LD_REPORT=env.txt "$L" -r --lto-whole-program --lto-report=opt.txt -o env2.o a.o b.o c.o
expect "LTO_LD_REPORT=FILE writes the report; --lto-report overrides it" \
	eval '[ "$(fate env.txt unused_global)" = removed ] && [ -f opt.txt ] &&
	      has_lines env.txt "lto-ld report: env.o (relocatable whole-program, native)"'

# Unwritable report paths: an error naming the report, no output, no report.
expect_fails "a report in a directory that does not exist: an error before the link" \
	"cannot write the report nodir/r\.txt" "$L" -e main --lto-report=nodir/r.txt -o bad1 a.o b.o c.o s.o m.o
expect_fails "a report path that is a directory: an error" \
	"cannot write the report rdir: Is a directory" sh -c "mkdir -p rdir && exec '$L' -e main --lto-report=rdir -o bad2 a.o b.o c.o s.o m.o"
expect_fails "a report that cannot be written after the link (/dev/full): an error" \
	"cannot write the report /dev/full: No space left on device" "$L" -e main --lto-report=/dev/full -o bad3 a.o b.o c.o s.o m.o
left=$(ls -A | grep -E '^bad|lto-ld-' | tr '\n' ' ')
expect "...and none of them left an output or a temporary file" test -z "$left"

# A failed link writes no report (the lost-definition error of plugin.sh).
cat > caller.c <<'C'
__asm__(".text\n\t.globl f_caller\nf_caller:\n\tcall target_fn\n");
C
printf 'int target_fn(int x) { return x * 7; }\n' > target.c
gcc -O2 -flto -c caller.c && gcc -O2 -flto -c target.c
rm -f lost.txt
expect "a link that fails writes no report" \
	eval '! "$L" -r --lto-whole-program --lto-report=lost.txt -o lost.o caller.o target.o && [ ! -e lost.txt ] && [ ! -e lost.o ]'

# Thin ld -r runs no LTO: no report, said once.
rm -f thin.txt
out=$("$L" -r --lto-partial=thin --lto-report=thin.txt -o t.o a.o b.o 2>&1)
expect "--lto-partial=thin: no report, and a warning says so" \
	eval '[ ! -e thin.txt ] && text_has "$out" "no LTO report for a thin ld -r output"' || diag "$out"

# Without lto-ld's plugin there is nothing to report from.
expect_fails "--lto-report with LTO_LD_PLUGIN (GCC's plugin) is an error" \
	"--lto-report \(LTO_LD_REPORT\) needs lto-ld-plugin\.so" \
	env LTO_LD_PLUGIN="$(gcc -print-file-name=liblto_plugin.so)" "$L" -r --lto-report=x.txt -o x.o a.o b.o
cd ..
done_testing
