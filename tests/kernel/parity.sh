#!/bin/sh
# Behavioural parity of a non-LTO and an LTO kernel, read from their QEMU
# consoles.  Each check prints one "parity: ..." line and fails with a
# message that names what differs.
# Usage: parity.sh kunit REFERENCE.log CANDIDATE.log
#        parity.sh initcalls REFERENCE.log CANDIDATE.log
#        parity.sh kallsyms VMLINUX LOG       (the /init lookups, see below)
#        parity.sh kallsyms-size REFERENCE-BUILD CANDIDATE-BUILD
#        parity.sh module LOG
#        parity.sh modules LOG                 (in-tree modules /init loaded)
#        parity.sh config LOG BUILD            (/proc/config.gz is .config)
#        parity.sh objtool BUILD               (no objtool warning, x86)
#        parity.sh debuglines REF-VMLINUX CAND-VMLINUX (gdb's source lines)
#        parity.sh symbols VMLINUX COUNT       (names for the /init to look up)
# CROSS: the prefix of nm and size (default arm-linux-gnueabihf-; empty
# for the host's own)
set -u

# console LOG: the console without timestamps and carriage returns
console() {
	sed -e 's/\r$//' -e 's/^\[ *[0-9]*\.[0-9]*\] //' "$1"
}

. "$(dirname "$0")/gcc-suffixes.sh"

# plain_name: strip the suffixes GCC gives clones and privatized statics
# (.lto_priv.N, .constprop.N, .isra.N, .part.N, .cold...) from stdin's names
plain_name() {
	sed -E "s/$gcc_suffix_ere//g"
}

# ktap LOG: one "STATUS ID" line per KUnit result (pass, fail or skip);
# ID is suite.test[.parameter], from the "# Subtest:" headers above it
ktap() {
	console "$1" | awk '
		function depth(s) { match(s, /^ */); return RLENGTH / 4 }
		/^ *# Subtest: / {
			d = depth($0); sub(/^ *# Subtest: /, ""); hdr[d] = $0
			for (i = d + 1; i in hdr; i++) delete hdr[i]
			next
		}
		/^ *(not )?ok [0-9]+ / {
			d = depth($0); line = $0; sub(/^ */, "", line)
			status = line ~ /^not ok/ ? "fail" : "pass"
			sub(/^(not )?ok [0-9]+ /, "", line)
			if (line ~ /# SKIP/) status = "skip"
			sub(/ *# .*/, "", line)
			id = ""
			for (i = 1; i <= d; i++) id = id hdr[i] "."
			print status, id line
		}'
}

# ktap_counts FILE: "S suites, T tests: P passed, F failed, K skipped"
# (tests are a suite's cases; the parameters of one case count once)
ktap_counts() {
	awk '{ n = split($2, part, "."); kind = n == 1 ? "suite" : n == 2 ? "case" : "param" }
		kind == "suite" { suites++ }
		kind == "case" { tests++; count[$1]++ }
		END { printf "%d suites, %d tests: %d passed, %d failed, %d skipped\n",
			suites, tests, count["pass"], count["fail"], count["skip"] }' "$1"
}

# check_kunit REF CAND: the candidate runs and passes exactly what the
# reference runs and passes
check_kunit() {
	ktap "$1" > "$2.ktap.ref"
	ktap "$2" > "$2.ktap"
	if [ ! -s "$2.ktap.ref" ]; then
		echo "parity: kunit: $1: no KUnit results in the console" >&2
		return 1
	fi
	echo "parity: kunit: reference: $(ktap_counts "$2.ktap.ref")"
	echo "parity: kunit: candidate: $(ktap_counts "$2.ktap")"
	sort "$2.ktap.ref" > "$2.ktap.ref.sorted"
	sort "$2.ktap" > "$2.ktap.sorted"
	if ! cmp -s "$2.ktap.ref.sorted" "$2.ktap.sorted"; then
		echo "parity: kunit: FAILED: results differ (< reference, > candidate):" >&2
		diff "$2.ktap.ref.sorted" "$2.ktap.sorted" | grep '^[<>]' | head -20 >&2
		return 1
	fi
	echo "parity: kunit: same results"
}

# initcalls LOG: "NAME RETURN" for each initcall pid 1 ran, in order
initcalls() {
	console "$1" | awk '
		/^calling  .* @ 1$/ {
			name = $2; sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", name)
			if ($3 ~ /^\[/) name = name " " $3
			order[++n] = name; next
		}
		/^initcall .* returned -?[0-9]+ after / {
			name = $2; sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", name)
			if ($3 ~ /^\[/) name = name " " $3
			for (i = 1; i <= NF; i++) if ($i == "returned") ret[name] = $(i + 1)
		}
		END { for (i = 1; i <= n; i++) print order[i], (order[i] in ret ? ret[order[i]] : "none") }' |
		plain_name | initcall_name
}

# initcall_name: the initcall a stub of LTO calls, for its stub (where
# initcall entries are 32-bit offsets, as on x86, the kernel's LTO
# calls each initcall through __initstub__kmod_MOD__N_LINE_FNLEVEL, which
# initcall_debug names when FN is inlined into it), on stdin's lines
initcall_name() {
	sed -E 's/^__initstub__kmod_[^ ]*__[0-9]+_[0-9]+_([^ ]+)(early|rootfs|con|security|[0-9]s?)( |$)/\1\3/'
}

# check_initcalls REF CAND: the same initcalls, in the same order, with
# the same return values
check_initcalls() {
	initcalls "$1" > "$2.initcalls.ref"
	initcalls "$2" > "$2.initcalls"
	if [ ! -s "$2.initcalls.ref" ]; then
		echo "parity: initcalls: $1: no initcall_debug lines in the console" >&2
		return 1
	fi
	if ! cmp -s "$2.initcalls.ref" "$2.initcalls"; then
		first=$(diff "$2.initcalls.ref" "$2.initcalls" | sed -n '1s/[acd].*//p' | cut -d, -f1)
		echo "parity: initcalls: FAILED: the order differs from initcall $first on:" >&2
		echo "  reference: $(sed -n "${first}p" "$2.initcalls.ref")" >&2
		echo "  candidate: $(sed -n "${first}p" "$2.initcalls")" >&2
		return 1
	fi
	echo "parity: initcalls: $(wc -l < "$2.initcalls") initcalls, same order and results"
}

# kallsyms_name: the names /proc/kallsyms shows for stdin's nm names
# (lto-ld drops .lto_priv.N; other clone suffixes stay)
kallsyms_name() {
	sed -E 's/\.lto_priv\.[0-9]+//g'
}

# symbols VMLINUX COUNT: names for /init to look up: start_kernel and
# kernel_init, then functions whose kallsyms name is unique, spread over
# the sorted list, half of them clones or privatized statics (with GCC's
# suffixes) where the kernel has them
symbols() {
	${CROSS-arm-linux-gnueabihf-}nm "$1" | awk '$2 ~ /^[tT]$/ && NF == 3 { print $3 }' |
		awk '{ name = $0; gsub(/\.lto_priv\.[0-9]+/, "", name); n[name]++
			suffixed[name] = name != $0 || name ~ /\.(constprop|isra|part)\./ }
		END { for (s in n) if (n[s] == 1 && s != "" && s !~ /^(\$|__)/) print (suffixed[s] ? "clone" : "plain"), s }' |
		sort | awk -v want="$2" '{ names[$1, ++count[$1]] = $2 }
		END {
			printf "start_kernel,kernel_init"
			clones = count["clone"] < want / 2 ? count["clone"] : int(want / 2)
			for (i = 0; i < clones; i++) printf ",%s", names["clone", 1 + int(i * count["clone"] / clones)]
			for (i = 0; i < want - clones; i++) printf ",%s", names["plain", 1 + int(i * count["plain"] / (want - clones))]
			print ""
		}'
}

# check_kallsyms VMLINUX LOG: every name /init looked up was found, at the
# address nm gives that name (suffixes stripped) in VMLINUX
check_kallsyms() {
	${CROSS-arm-linux-gnueabihf-}nm "$1" | awk '{ print $1, $3 }' | kallsyms_name |
		sort -u > "$2.nm"
	console "$2" | sed -n 's/^lto-ld-init: kallsyms //p' > "$2.kallsyms"
	if [ ! -s "$2.kallsyms" ]; then
		echo "parity: kallsyms: $2: /init printed no lookups" >&2
		return 1
	fi
	bad=$(awk 'NR == FNR { at[$2 " " $1] = 1; next }
		$2 == "missing" { print $1 " is missing from /proc/kallsyms"; next }
		!(($3 " " $1) in at) { print $3 " at " $1 " is not where nm puts it" }' \
		"$2.nm" "$2.kallsyms")
	if [ -n "$bad" ]; then
		echo "parity: kallsyms: FAILED: $bad" >&2
		return 1
	fi
	echo "parity: kallsyms: $(wc -l < "$2.kallsyms") lookups at the right address"
}

# kallsyms_bytes BUILD: "BYTES SYMBOLS NAME-BYTES" of the last kallsyms
# table linked: its size, its symbols, and the bytes their names take
# before kallsyms compresses them (a length byte, the type, the name)
kallsyms_bytes() {
	s=$(ls "$1"/.tmp_vmlinux*.kallsyms.S | sort | tail -n 1)
	bytes=$(${CROSS-arm-linux-gnueabihf-}size -A "${s%.S}.o" |
		awk '$1 == ".rodata" || $1 == ".data" || $1 == ".text" { b += $2 } END { print b }')
	syms=$(awk '/^kallsyms_num_syms:/ { getline; print $2; exit }' "$s")
	names=$(awk '{ b += 2 + length($3) } END { print b }' "${s%.kallsyms.S}.syms")
	echo "$bytes $syms $names"
}

# lto_names BUILD: how many names of BUILD's last kallsyms table GCC's
# LTO made up (NAME.lto_priv.N), then the first of them
lto_names() {
	s=$(ls "$1"/.tmp_vmlinux*.kallsyms.S | sort | tail -n 1)
	awk '$3 ~ /\.lto_priv\.[0-9]/ { if (!n++) first = $3 } END { print n + 0, first }' \
		"${s%.kallsyms.S}.syms"
}

# check_kallsyms_size REF CAND: the candidate's kallsyms table takes no
# more bytes than the reference's, and no name in it is one GCC's LTO
# made up: lto-ld gives statics their source names back.  Bytes per
# symbol are reported too; they rise when LTO drops the short-named
# statics it inlined everywhere, which costs nothing.
check_kallsyms_size() {
	set -- $(kallsyms_bytes "$1") $(kallsyms_bytes "$2") $(lto_names "$2")
	awk -v rb="$1" -v rs="$2" -v rn="$3" -v cb="$4" -v cs="$5" -v cn="$6" \
	    -v made="$7" -v first="${8-}" 'BEGIN {
		printf "parity: kallsyms-size: reference %d symbols, table %.2f bytes each, names %.2f; candidate %d symbols, table %.2f bytes each, names %.2f; table %d against %d bytes\n",
			rs, rb / rs, rn / rs, cs, cb / cs, cn / cs, cb, rb
		if (cb > rb)
			print "parity: kallsyms-size: FAILED: the candidate table is bigger" > "/dev/stderr"
		if (made > 0)
			printf "parity: kallsyms-size: FAILED: %d names GCC'"'"'s LTO made up, such as %s\n", made, first > "/dev/stderr"
		exit cb > rb || made > 0
	}'
}

# source_lines VMLINUX NAME...: "NAME FILE" for each NAME, the source
# file gdb gives the first address nm gives NAME, or else NAME without
# GCC's clone suffixes ("none": no such function, or no line)
source_lines() {
	v=$1; shift
	${CROSS-arm-linux-gnueabihf-}nm "$v" | awk '$2 ~ /^[tT]$/ && !seen[$3]++ { print $3, $1 }' > "$v.addrs"
	for n in "$@"; do
		a=$(awk -v n="$n" -v p="$(printf '%s\n' "$n" | plain_name)" \
			'$1 == n { print $2; exit } $1 == p { alt = $2 } END { if (alt != "") print alt }' "$v.addrs" | head -1)
		printf -- '-ex\ninfo line *0x%s\n' "${a:-0}"
	done > "$v.gdb"
	xargs -d '\n' -a "$v.gdb" "${GDB:-gdb}" -nx -batch "$v" 2> /dev/null |
		sed -E 's/^Line [0-9]+ of "([^"]*)".*/\1/; t; s/.*/none/' > "$v.files"
	printf '%s\n' "$@" | paste -d' ' - "$v.files"
	rm -f "$v.addrs" "$v.gdb" "$v.files"
}

# check_debuglines REF-VMLINUX CAND-VMLINUX: a kernel built with
# DEBUG_INFO keeps its source lines through LTO: gdb puts each of a
# spread of the candidate's functions (as for kallsyms) at a source
# line.  How many are in the same file as without LTO is reported, not
# required: a function's first instruction may come from a function
# inlined into it, from a header or, with LTO, from another .c file
# (start_kernel's from kernel/fork.c).
check_debuglines() {
	names=$(symbols "$2" 30 | tr ',' ' ')
	source_lines "$2" $names > "$2.lines"
	source_lines "$1" $names > "$1.lines"
	paste -d' ' "$2.lines" "$1.lines" > "$2.lines-both"
	bad=$(awk '$2 == "none" { print $1 " has no source line" }' "$2.lines-both" | paste -sd';' -)
	total=$(wc -l < "$2.lines-both")
	same=$(awk '$2 ~ /\.c$/ && $2 == $4' "$2.lines-both" | wc -l)
	rm -f "$2.lines" "$1.lines" "$2.lines-both"
	if [ -n "$bad" ]; then
		echo "parity: debuglines: FAILED: $bad" >&2
		return 1
	fi
	echo "parity: debuglines: $total functions at a source line, $same of them in the same .c file as without LTO"
}

# check_module LOG: /init loaded the test module and its checks passed
check_module() {
	console "$1" > "$1.module"
	if ! grep -q '^lto-ld-init: module .* loaded$' "$1.module" ||
		! grep -q 'lto_ld_test: all [0-9]* checks passed' "$1.module"; then
		echo "parity: module: FAILED: $1: $(grep -E 'lto_ld_test:|lto-ld-init: module' "$1.module" | paste -sd';' -)" >&2
		return 1
	fi
	echo "parity: module: $(grep -o 'lto_ld_test: all [0-9]* checks passed' "$1.module")"
}

# check_modules LOG: /init loaded every module it was given, and at least
# one; a driver whose device QEMU does not have (its init says ENODEV:
# x86_64_defconfig's x86_pkg_temp_thermal) counts apart, not as a failure
check_modules() {
	console "$1" > "$1.modules"
	loaded=$(grep -c '^lto-ld-init: module .* loaded$' "$1.modules")
	nodev=$(grep -c '^lto-ld-init: module .* not loaded: No such device$' "$1.modules")
	failed=$(grep '^lto-ld-init: module .* not loaded' "$1.modules" |
		grep -v ': No such device$' | paste -sd';' -)
	if [ "$loaded" -eq 0 ] || [ -n "$failed" ]; then
		echo "parity: modules: FAILED: $1: $loaded loaded${failed:+; $failed}" >&2
		return 1
	fi
	nodev_text=
	[ "$nodev" -eq 0 ] || nodev_text=", $nodev without their device"
	echo "parity: modules: $loaded loaded$nodev_text"
}

# check_config LOG BUILD: /proc/config.gz, as /init read it, is the
# build's kernel/config_data.gz, and that is the build's .config
check_config() {
	got=$(console "$1" | sed -n 's|^lto-ld-init: cksum /proc/config.gz ||p')
	want=$(cksum < "$2/kernel/config_data.gz")
	if [ "$got" != "$want" ] || ! gzip -dc "$2/kernel/config_data.gz" | cmp -s - "$2/.config"; then
		echo "parity: config: FAILED: $1: /proc/config.gz has cksum '${got:-none}', $2/kernel/config_data.gz '$want' (or it is not $2/.config)" >&2
		return 1
	fi
	echo "parity: config: /proc/config.gz is .config (cksum $want)"
}

# check_objtool BUILD: objtool raised no warning on vmlinux.o or on the
# modules, in the build that last linked BUILD's vmlinux.o (objtool.log,
# the messages of that make)
check_objtool() {
	log=$1/objtool.log
	if [ ! -f "$log" ]; then
		echo "parity: objtool: FAILED: $log: no messages kept from the make that linked vmlinux.o" >&2
		return 1
	fi
	warnings=$(grep -c 'warning: objtool:' "$log")
	if [ "$warnings" -ne 0 ]; then
		echo "parity: objtool: FAILED: $log: $warnings warnings, the first: $(grep -m1 'warning: objtool:' "$log")" >&2
		return 1
	fi
	echo "parity: objtool: no warning on vmlinux.o or the modules"
}

case ${1:-} in
	kunit) check_kunit "$2" "$3" ;;
	initcalls) check_initcalls "$2" "$3" ;;
	kallsyms) check_kallsyms "$2" "$3" ;;
	kallsyms-size) check_kallsyms_size "$2" "$3" ;;
	module) check_module "$2" ;;
	modules) check_modules "$2" ;;
	config) check_config "$2" "$3" ;;
	objtool) check_objtool "$2" ;;
	debuglines) check_debuglines "$2" "$3" ;;
	symbols) symbols "$2" "$3" ;;
	*) echo "usage: $0 kunit|initcalls REF.log CAND.log | kallsyms VMLINUX LOG |" \
		"kallsyms-size REF-BUILD CAND-BUILD | module LOG | modules LOG |" \
		"config LOG BUILD | objtool BUILD | debuglines REF-VMLINUX CAND-VMLINUX |" \
		"symbols VMLINUX COUNT" >&2
	   exit 2 ;;
esac
