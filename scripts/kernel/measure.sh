# scripts/kernel.sh's measurements: the measured suite (timed clean
# builds and rebuilds of each target), the size table, where the size
# went (sizediff), and the tables they write into docs/results.md.
# Sourced by scripts/kernel.sh.

# timed LABEL TARGET VARIANT ARGS...: kmake, with "LABEL,wall,user,sys" in $times
timed() {
	label=$1; shift
	run="/usr/bin/time -f $label,%e,%U,%S -a -o $times"
	kmake "$@" || { run=; return 1; }
	run=
}

# no_launcher JOB: the measured jobs time compiles, so ccache (or any
# KERNEL_CC_LAUNCHER) is left out of them
no_launcher() {
	if [ -n "${KERNEL_CC_LAUNCHER:-}" ]; then
		echo "kernel: $1 times kernel compiles: KERNEL_CC_LAUNCHER ($KERNEL_CC_LAUNCHER) left out" >&2
		unset KERNEL_CC_LAUNCHER
	fi
}

# size_of TARGET VARIANT: "text data bss dec" of its vmlinux
size_of() {
	target_env "$1"
	${cross}size "$cache/kbuild/$1-$2/vmlinux" | awk 'NR == 2 {print $1, $2, $3, $4}'
}

# measure TARGET: clean builds (LTO with and without its LTRANS cache),
# rebuilds after touching and after editing init/main.c, side by side;
# then, for a target QEMU boots, the edited LTO kernel's boot and the
# parity checks
measure() {
	rm -rf "$cache/kbuild/$1-nolto"
	configure "$1" nolto
	timed "$1-nolto-build" "$1" nolto -j"$jobs" vmlinux
	# without the cache first: the cached build then starts with none
	rm -rf "$cache/kbuild/$1-lto"
	configure "$1" lto
	export LTO_LD_CACHE=
	timed "$1-lto-nocache-build" "$1" lto -j"$jobs" vmlinux
	unset LTO_LD_CACHE
	mv "$cache/kbuild/$1-lto/vmlinux" "$cache/kbuild/$1-lto-nocache.vmlinux"
	rm -rf "$cache/kbuild/$1-lto"
	configure "$1" lto
	timed "$1-lto-build" "$1" lto -j"$jobs" vmlinux
	# two clean builds of one tree, with and without the cache
	if cmp -s "$cache/kbuild/$1-lto-nocache.vmlinux" "$cache/kbuild/$1-lto/vmlinux"; then
		echo "$1-lto-reproducible,bit-identical" >> "$times"
	else
		echo "$1-lto-reproducible,DIFFERENT" >> "$times"
	fi
	rm -f "$cache/kbuild/$1-lto-nocache.vmlinux"
	for v in nolto lto; do
		touch "$tree/init/main.c"
		timed "$1-$v-rebuild" "$1" "$v" -j"$jobs" vmlinux
	done
	edit_main
	for v in nolto lto; do
		edit_rebuild "$1" "$v" "$1-$v-edit"
	done
	echo "$1-lto-edit-ltrans,$(ltrans_counts "$cache/kbuild/$1-lto/edit.log")" >> "$times"
	if [ -n "$(targets_booted "$1")" ]; then
		if edit_boot "$1"; then echo "$1-lto-edit-boot,edited notice printed" >> "$times"
		else echo "$1-lto-edit-boot,FAILED" >> "$times"; fi
	fi
	unedit_main
	[ -n "$(targets_booted "$1")" ] || return 0
	for v in nolto lto; do
		images "$1" $v
		if boot "$1" $v; then echo "$1-$v-boot,userspace /init ran" >> "$times"
		else echo "$1-$v-boot,FAILED" >> "$times"; fi
	done
	compare "$1" || echo "$1-parity,FAILED" >> "$times"
}

# table TARGETS: the markdown results table from $times and the sizes
table() {
	echo "| target | build | text | data | bss | dec | full build wall (CPU) | rebuild after touch init/main.c | rebuild after a one-line edit of init/main.c | boot (QEMU) |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for t in "$@"; do
		for v in nolto lto; do
			set -- $(size_of "$t" $v)
			b=$(awk -F, -v k="$t-$v-build" '$1 == k {printf "%.0f s (%.0f s)", $2, $3 + $4}' "$times")
			r=$(awk -F, -v k="$t-$v-rebuild" '$1 == k {printf "%.1f s", $2}' "$times")
			e=$(awk -F, -v k="$t-$v-edit" '$1 == k {printf "%.1f s", $2}' "$times")
			boot=$(awk -F, -v k="$t-$v-boot" '$1 == k {print $2}' "$times")
			if [ $v = lto ]; then
				e="$e (LTRANS cache: $(awk -F, -v k="$t-lto-edit-ltrans" '$1 == k {print $2}' "$times"))"
				eb=$(awk -F, -v k="$t-lto-edit-boot" '$1 == k {print $2}' "$times")
				[ -n "$eb" ] && boot="$boot; edited kernel: $eb"
			fi
			echo "| $t | $v | $1 | $2 | $3 | $4 | $b | $r | $e | ${boot:-not booted} |"
			eval "${v}_dec=$4"
		done
		awk -F, -v t="$t" -v a="$nolto_dec" -v b="$lto_dec" -f - "$times" <<'AWK'
$1 == t "-nolto-build" { nb = $2; nc = $3 + $4 }
$1 == t "-lto-build" { lb = $2; lc = $3 + $4 }
$1 == t "-lto-nocache-build" { ub = $2; uc = $3 + $4 }
$1 == t "-lto-reproducible" { same = $2 }
$1 == t "-nolto-rebuild" { nr = $2 }
$1 == t "-lto-rebuild" { lr = $2 }
$1 == t "-nolto-edit" { ne = $2 }
$1 == t "-lto-edit" { le = $2 }
END {
	printf "| %s | LTO vs no LTO | | | | %+.1f%% | %.2fx wall, %.2fx CPU | %.1fx | %.1fx | |\n", t, (b - a) * 100 / a, lb / nb, lc / nc, lr / nr, le / ne
	printf "| %s | LTO, full build with an empty LTRANS cache vs none (%.0f s, %.0f s CPU); vmlinux of the two: %s | | | | | %+.1f%% wall, %+.1f%% CPU | | | |\n", t, ub, uc, same, (lb - ub) * 100 / ub, (lc - uc) * 100 / uc
}
AWK
	done
}

# suite TARGETS: measure every target, then print the tables and put them
# in docs/results.md: the default targets' as kernel-results and
# kernel-parity, others' as kernel-results-FIRST-TARGET and
# kernel-parity-FIRST-TARGET
suite() {
	[ $# -gt 0 ] || set -- mps2 virt stm32
	suffix=
	[ "$*" = "mps2 virt stm32" ] || suffix=-$1
	no_launcher suite
	times=$cache/times.txt
	: > "$times"
	for t in "$@"; do measure "$t"; done
	{
		table "$@"
		echo
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, kernel compiles without ccache, by \`scripts/kernel.sh LTO_LD suite $*\`."
	} > "$cache/results.md"
	{
		parity_table $(targets_booted "$@")
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD suite $*\`."
	} > "$cache/parity.md"
	cat "$cache/results.md" "$cache/parity.md"
	results_table "kernel-results$suffix" "$cache/results.md"
	results_table "kernel-parity$suffix" "$cache/parity.md"
	grep -q 'FAILED\|DIFFERENT' "$times" && return 1
	return 0
}

# size_row TARGET: the sizes of the three variants of TARGET, a table row
size_row() {
	set -- "$1" $(size_of "$1" nolto) $(size_of "$1" ltoplain) $(size_of "$1" lto)
	awk -v t="$1" -v nt="$2" -v nd="$5" -v pt="$6" -v pd="$9" -v wt="${10}" -v wd="${13}" 'BEGIN {
		printf "| %s | %d / %d | %d / %d (%+.1f%% / %+.1f%%) | %d / %d (%+.1f%% / %+.1f%%) |\n",
			t, nt, nd, pt, pd, (pt - nt) * 100 / nt, (pd - nd) * 100 / nd,
			wt, wd, (wt - nt) * 100 / nt, (wd - nd) * 100 / nd }'
}

# board_row TARGET: TARGET's whole-program LTO against its board's own
# build without LTO (vexpress-small against vexpress), a table row
board_row() {
	b=$(board "$1")
	set -- "$1" "$b" $(size_of "$b" nolto) $(size_of "$1" lto)
	awk -v t="$1" -v b="$2" -v nt="$3" -v nd="$6" -v wt="$7" -v wd="${10}" 'BEGIN {
		printf "| %s against %s without LTO | %d / %d | | %d / %d (%+.1f%% / %+.1f%%) |\n",
			t, b, nt, nd, wt, wd, (wt - nt) * 100 / nt, (wd - nd) * 100 / nd }'
}

# sizes TARGETS: build no LTO, plain ld -r LTO and whole-program LTO of
# each target; the size table (text / dec of vmlinux), and a row for a
# target measured beside its board's own (vexpress-small, vexpress).
# The default targets' table is kernel-sizes in docs/results.md, others
# go in kernel-sizes-FIRST-TARGET.
sizes() {
	[ $# -gt 0 ] || set -- mps2 virt stm32
	costs=
	for t in "$@"; do
		for v in nolto ltoplain lto; do
			configure "$t" "$v"
			kmake "$t" "$v" -j"$jobs" vmlinux
		done
		costs="$costs${costs:+;} $t $(link_cost "$t" lto)"
	done
	{
		echo "| target | no LTO: text / dec | LTO, plain ld -r vmlinux.o | LTO, whole-program vmlinux.o |"
		echo "|---|---|---|---|"
		for t in "$@"; do size_row "$t"; done
		for t in "$@"; do
			case " $* " in *" $(board "$t") "*) [ "$(board "$t")" = "$t" ] || board_row "$t" ;; esac
		done
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD sizes $*\` (\`size\` of vmlinux, bytes)."
		echo "The whole-program LTO link, from vmlinux.o on, without the LTRANS cache (wall, peak RSS of the largest process):$costs."
	} > "$cache/sizes.md"
	cat "$cache/sizes.md"
	marker=kernel-sizes
	[ "$*" = "mps2 virt stm32" ] || marker=kernel-sizes-$1
	results_table "$marker" "$cache/sizes.md"
}

# sizediff TARGET: lto-sizediff of TARGET-nolto and TARGET-lto with the
# LTO report of TARGET-lto's vmlinux.o (relinked for it, then vmlinux
# from it), in TARGET-lto's folder: sizediff.txt, sizediff.json and
# sizediff.html (the treemap page, every change in its table); the
# keep-reason table into docs/results.md
sizediff() {
	t=$1 kb=$cache/kbuild
	out=$kb/$t-lto report=$t-lto/lto-report.json
	set --
	for b in "$t-nolto" "$t-lto"; do
		for a in vmlinux.a lib/lib.a arch/arm/lib/lib.a arch/x86/lib/lib.a; do
			[ -f "$kb/$b/$a" ] && set -- "$@" --objects="$b/$a"
		done
	done
	# the report of the vmlinux.o link alone (later links would replace
	# it), in JSON for the join
	rm -f "$out/vmlinux.o" "$kb/$report"
	LTO_LD_REPORT=$kb/$report kmake "$t" lto -j"$jobs" vmlinux_o
	kmake "$t" lto -j"$jobs" vmlinux
	# paths from kbuild/: the tables name stm32-lto/vmlinux, not this machine's folders
	set -- "$@" --report="$report" "$t-nolto/vmlinux" "$t-lto/vmlinux"
	status=0
	(cd "$kb" && "$bin/${cross}lto-sizediff" --top=15 "$@") \
		> "$out/sizediff.txt" 2> "$out/sizediff.err" || status=$?
	# (nm's "no symbols" for objects that define nothing is noise here)
	grep -v ': no symbols$' "$out/sizediff.err" >&2 || true
	if [ "$status" -ne 0 ]; then
		echo "kernel: lto-sizediff failed (exit $status)" >&2
		return 1
	fi
	if ! (cd "$kb" && "$bin/${cross}lto-sizediff" --json --top=0 \
		--html="$out/sizediff.html" "$@") 2> "$out/sizediff-json.err" > "$out/sizediff.json"; then
		grep -v ': no symbols$' "$out/sizediff-json.err" >&2
		echo "kernel: lto-sizediff --json --html failed" >&2
		return 1
	fi
	cat "$out/sizediff.txt"
	echo "kernel: the treemap page: $out/sizediff.html"
	{
		echo '```'
		sed -n '/^by keep reason/,$p' "$out/sizediff.txt"
		echo '```'
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD sizediff $t\` (the LTO image's sized symbols, \`nm -S\`)."
	} > "$cache/keep-reasons-$t.md"
	results_table "keep-reasons-$t" "$cache/keep-reasons-$t.md"
}
