# scripts/kernel.sh's parity: the checks that an LTO kernel behaves like
# its non-LTO twin (compare, parity), the checks of those checks
# (faults), the rebuilds through the LTO cache (ikconfig), the check
# command's TAP results, the parity table, and the kernel's own KUnit
# runner (kunit_py). Sourced by scripts/kernel.sh.

# (the LTO variant the parity checks compare with TARGET-nolto: lto,
# unless parity names another, such as lto-trim)
candidate=lto

# parity_key TARGET: the name of its parity results: TARGET, or
# TARGET-VARIANT for a candidate other than lto
parity_key() {
	if [ "$candidate" = lto ]; then echo "$1"; else echo "$1-$candidate"; fi
}

# compare TARGET: the parity checks of TARGET-$candidate against
# TARGET-nolto; "NAME,RESULT" lines in parity-KEY.csv (parity_key), fails
# when one fails
compare() {
	ref=$cache/kbuild/$1-nolto cand=$cache/kbuild/$1-$candidate
	out=$cache/parity-$(parity_key "$1").csv
	target_env "$1"
	parity=$top/tests/kernel/parity.sh
	: > "$out"
	status=0
	# record NAME COMMAND...: run one check, keep its verdict and output
	record() {
		name=$1; shift
		if "$@" > "$cand/parity-$name.txt"; then
			echo "$name,ok" >> "$out"
		else
			echo "$name,FAILED" >> "$out"; status=1
		fi
		cat "$cand/parity-$name.txt"
	}
	record kunit "$parity" kunit "$ref/console.log" "$cand/console.log"
	record initcalls "$parity" initcalls "$ref/console.log" "$cand/console.log"
	record console "$top/tests/kernel/compare-console.sh" "$ref/console.log" "$cand/console.log"
	case $(board "$1") in virt|vexpress|x86_64|multi_v7)
		for v in nolto lto; do
			b=$ref
			[ $v = lto ] && b=$cand
			if [ "$(board "$1")" = virt ]; then
				record "module-$v" "$parity" module "$b/console.log"
			else
				record "modules-$v" "$parity" modules "$b/console.log"
				record "config-$v" "$parity" config "$b/console.log" "$b"
			fi
			if [ "$(board "$1")" = x86_64 ]; then
				record "objtool-$v" "$parity" objtool "$b"
			fi
			record "kallsyms-$v" "$parity" kallsyms "$b/vmlinux" "$b/console.log"
		done
		record kallsyms-size "$parity" kallsyms-size "$ref" "$cand" ;;
	esac
	# (mps2, vexpress: the kernel stays debuggable)
	rm -f "$cand/parity-debuglines.txt"
	if grep -qx 'CONFIG_DEBUG_INFO=y' "$cand/.config"; then
		record debuglines "$parity" debuglines "$ref/vmlinux" "$cand/vmlinux"
	fi
	return $status
}

# parity TARGET [VARIANT]: TARGET without LTO and TARGET-VARIANT (default
# lto) built and booted, then compared; the parity table goes in
# docs/results.md where it has markers (kernel-parity-KEY, parity_key)
parity() {
	candidate=${2:-lto}
	key=$(parity_key "$1")
	for v in nolto "$candidate"; do
		build "$1" $v
		boot "$1" $v || { echo "kernel: $1-$v did not run /init to its end (see its console.log)" >&2; return 1; }
	done
	same=0
	compare "$1" || same=1
	{
		parity_table "$1"
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD parity $1${2:+ $2}\`;" \
			"\`size\` dec of the two vmlinux: $(parity_sizes "$1")."
	} > "$cache/parity-$key.md"
	if results_marked "kernel-parity-$key"; then
		results_table "kernel-parity-$key" "$cache/parity-$key.md"
	fi
	return $same
}

# parity_sizes TARGET: "no LTO N, LTO M (+P%)", the dec of the two builds
parity_sizes() {
	n=$(size_of "$1" nolto | cut -d' ' -f4) l=$(size_of "$1" "$candidate" | cut -d' ' -f4)
	awk -v n="$n" -v l="$l" 'BEGIN { printf "no LTO %d, LTO %d (%+.1f%%)", n, l, (l - n) * 100 / n }'
}

# faults: the virt LTO kernel booted without one initcall and with a
# module that fails its checks; the parity checks must report both
# ("NAME,RESULT" lines in faults.csv, as compare's)
faults() {
	b=$cache/kbuild/virt-lto ref=$cache/kbuild/virt-nolto/console.log
	parity=$top/tests/kernel/parity.sh
	skipped=proc_uptime_init
	: > "$cache/faults.csv"
	boot virt lto "initcall_blacklist=$skipped ltoinit_modparams=fault=1 kunit.enable=0" || true
	status=0 r=ok
	if "$parity" initcalls "$ref" "$b/console-fault.log" > /dev/null 2> "$b/fault-initcalls.txt" ||
		! grep -q "reference: $skipped " "$b/fault-initcalls.txt"; then
		echo "kernel: faults: the initcall check did not name $skipped:" >&2
		status=1 r=FAILED
	fi
	echo "initcall left out caught,$r" >> "$cache/faults.csv"
	sed "s/^/kernel: faults: expected: /" "$b/fault-initcalls.txt"
	r=ok
	if "$parity" module "$b/console-fault.log" > /dev/null 2> "$b/fault-module.txt" ||
		! grep -q 'int_sqrt: got' "$b/fault-module.txt"; then
		echo "kernel: faults: the module check did not report the failed check:" >&2
		status=1 r=FAILED
	fi
	echo "failing module caught,$r" >> "$cache/faults.csv"
	sed "s/^/kernel: faults: expected: /" "$b/fault-module.txt"
	[ $status = 0 ] && echo "kernel: faults: both broken states caught"
	return $status
}

# ikconfig_change TARGET LINE ARGS...: change TARGET-lto's .config with
# scripts/config ARGS, rebuild vmlinux with its in-tree LTO cache, and
# check that the config in the image (CONFIG_IKCONFIG: an .incbin that
# the IR only names) now has LINE
ikconfig_change() {
	t=$1 want=$2; shift 2
	b=$cache/kbuild/$t-lto
	"$tree/scripts/config" --file "$b/.config" "$@"
	kmake "$t" lto olddefconfig
	grep -qx "$want" "$b/.config" || {
		echo "kernel: $t-lto: '$want' did not reach .config" >&2; return 1; }
	LTO_LD_VERBOSE=1 kmake "$t" lto -j"$jobs" vmlinux 2> "$b/ikconfig.log" || {
		cat "$b/ikconfig.log" >&2; return 1; }
	if "$tree/scripts/extract-ikconfig" "$b/vmlinux" | grep -qx "$want"; then
		echo "kernel: $t-lto after '$want', LTRANS cache $(ltrans_counts "$b/ikconfig.log"): the image's config has it"
		return 0
	fi
	echo "kernel: $t-lto after '$want': the image's config (extract-ikconfig) does not have it: stale" >&2
	return 1
}

# ikconfig TARGET: two option changes, each rebuilt through the cache:
# one that changes no compiled code, and one that does (the version)
ikconfig() {
	r=ok stale=0
	ikconfig_change "$1" CONFIG_HEADERS_INSTALL=y --enable HEADERS_INSTALL || r=FAILED stale=1
	"$results" line "$r" "$1 ikconfig: CONFIG_HEADERS_INSTALL=y, rebuilt with the LTO cache, is in the image's config" >> "$lines"
	r=ok
	ikconfig_change "$1" 'CONFIG_LOCALVERSION="-lto-ld-ikconfig"' \
		--set-str LOCALVERSION -lto-ld-ikconfig || r=FAILED stale=1
	"$results" line "$r" "$1 ikconfig: CONFIG_LOCALVERSION changed, rebuilt with the LTO cache, is in the image's config" >> "$lines"
	[ $stale = 0 ]
}

# check: parity of mps2, virt and virt-thumb2, the fault checks, virt's edit and
# option changes rebuilt through the cache, the parity table;
# one TAP result per check in kernel-check.log (tests/kernel/results.sh)
check() {
	# (not "status": the functions it calls set that one)
	failed=0
	results=$top/tests/kernel/results.sh lines=$cache/kernel-check.results
	: > "$lines"
	rm -f "$cache/kernel-check.log" "$cache/faults.csv"
	for t in mps2 virt virt-thumb2 x86_64-tiny; do
		rm -f "$cache/parity-$t.csv"
		parity "$t" || failed=1
		"$results" csv "$t" "$cache/parity-$t.csv" >> "$lines"
	done
	faults || failed=1
	"$results" csv "virt faults:" "$cache/faults.csv" >> "$lines"
	# a real edit, rebuilt with the LTRANS cache and booted
	if edit_main && edit_rebuild virt lto "" && edit_boot virt; then r=ok; else failed=1 r=FAILED; fi
	"$results" line "$r" "virt edit: rebuilt with the LTRANS cache, booted" >> "$lines"
	unedit_main
	# the image's copy of .config follows option changes through the cache
	ikconfig virt || failed=1
	"$results" tap < "$lines" > "$cache/kernel-check.log"
	cat "$cache/kernel-check.log"
	{
		parity_table mps2 virt virt-thumb2 x86_64-tiny
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD check\`."
	} | tee "$cache/parity.md"
	return $failed
}

# kunit_py VARIANT: the kernel's own KUnit runner for ARM (QEMU virt)
# with the project's suites; the lto variant adds the LTO options
kunit_py() {
	set -- run --arch=arm --cross_compile="$cross" --build_dir="$cache/kbuild/kunit-$1" \
		--kunitconfig="$configs/kunit.config" --jobs="$jobs" --timeout=900 \
		--make_options "CC=$kernel_cc" $([ "$1" = lto ] &&
		echo "--make_options LD=${cross}lto-ld --kconfig_add CONFIG_LTO_GCC=y")
	PATH=$cache/bin:$PATH "$tree/tools/testing/kunit/kunit.py" "$@"
}

# parity_value TARGET NAME: the verdict of one parity check of TARGET
parity_value() {
	awk -F, -v k="$2" '$1 == k {print $2}' "$cache/parity-$(parity_key "$1").csv"
}

# parity_text TARGET NAME SED-SCRIPT: a figure from one check's output
parity_text() {
	sed -n "$3" "$cache/kbuild/$1-$candidate/parity-$2.txt" 2>/dev/null | paste -sd/ -
}

# parity_kunit TARGET WHICH: "P of T" KUnit tests of the reference or
# the candidate kernel
parity_kunit() {
	parity_text "$1" kunit "s/^parity: kunit: $2: [0-9]* suites, \([0-9]*\) tests: \([0-9]*\) passed.*/\2 of \1/p"
}

# parity_table TARGETS: the markdown parity table from the checks' outputs
parity_table() {
	echo "| target | KUnit tests passed without LTO | with LTO | initcalls | console | modules loaded (virt, vexpress, x86_64, multi_v7) | kallsyms lookups right (virt, vexpress, x86_64, multi_v7); gdb's source lines (DEBUG_INFO) | kallsyms table without / with LTO (virt, vexpress, x86_64, multi_v7) | verdict |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for t in "$@"; do
		ic=$(parity_text "$t" initcalls 's/^parity: initcalls: \([0-9]*\) initcalls, same.*/\1, same order/p')
		mod= ks= kb=
		case $(board "$t") in
		virt) mod="$(parity_value "$t" module-nolto) / $(parity_value "$t" module-lto)" ;;
		vexpress|x86_64|multi_v7) mod="$(parity_text "$t" modules-nolto 's/^parity: modules: //p') / $(parity_text "$t" modules-lto 's/^parity: modules: //p'); /proc/config.gz: $(parity_value "$t" config-nolto) / $(parity_value "$t" config-lto)" ;;
		esac
		if [ "$(board "$t")" = x86_64 ]; then
			mod="$mod; no objtool warning: $(parity_value "$t" objtool-nolto) / $(parity_value "$t" objtool-lto)"
		fi
		case $(board "$t") in virt|vexpress|x86_64|multi_v7)
			ks="$(parity_text "$t" kallsyms-nolto 's/^parity: kallsyms: \([0-9]*\) lookups.*/\1/p') / $(parity_text "$t" kallsyms-lto 's/^parity: kallsyms: \([0-9]*\) lookups.*/\1/p')"
			kb=$(parity_text "$t" kallsyms-size 's/.*reference \([0-9]*\) symbols, table \([0-9.]*\) bytes each, names \([0-9.]*\); candidate \([0-9]*\) symbols, table \([0-9.]*\) bytes each, names \([0-9.]*\); table \([0-9]*\) against \([0-9]*\) bytes/table \8 \/ \7 bytes (\2 \/ \5 per symbol, \1 \/ \4 symbols), names \3 \/ \6 per symbol/p') ;;
		esac
		if [ -f "$cache/kbuild/$t-$candidate/parity-debuglines.txt" ]; then
			dl=$(parity_text "$t" debuglines 's/^parity: debuglines: \([0-9]*\) functions at a source line, \([0-9]*\) .*/\1 functions at a source line (\2 in the same .c file)/p')
			ks="$ks; gdb: ${dl:-$(parity_value "$t" debuglines)}"
		fi
		verdict=same
		grep -q FAILED "$cache/parity-$(parity_key "$t").csv" && verdict=DIFFERENT
		label=$t
		[ "$candidate" = lto ] || label="$t, $candidate"
		echo "| $label | $(parity_kunit "$t" reference) | $(parity_kunit "$t" candidate) | ${ic:-$(parity_value "$t" initcalls)} | $(parity_value "$t" console) | $mod | $ks | $kb | $verdict |"
	done
}
