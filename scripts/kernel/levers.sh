# scripts/kernel.sh's levers: the flags each lever gives a build, and the
# levers and edit-levers commands, which measure each lever beside the
# build as configured and write their tables. Sourced by scripts/kernel.sh.

# lever_cflags LEVER: the compiler flags a flag lever adds (KCFLAGS)
lever_cflags() {
	case $1 in
		sra) echo -fipa-sra ;;
		partial) echo -fno-partial-inlining ;;
		stack) echo -fno-conserve-stack ;;
		zstd1) echo -flto-compression-level=1 ;;
	esac
}

# lever_lto_flags VARIANT: the flags a lever gives the LTO step
# (LTO_LD_LTO_FLAGS; kbuild does not see the environment, so each such
# lever has a folder of its own)
lever_lto_flags() {
	case $1 in
		lto-one) echo -flto-partition=one ;;
		lto-zstd1) echo -flto-compression-level=1 ;;
		# GC only once WPA's heap passes 1 GiB (GCC's default on this
		# machine: 128 MiB, then whenever it grew by the expand percentage)
		lto-ggc) echo --param=ggc-min-expand=100 --param=ggc-min-heapsize=1048576 ;;
		# WPA's identical code folding (0.4 s of its 5.3 s on mps2)
		lto-icf) echo -fno-ipa-icf ;;
	esac
}

# lever_variants LEVER: the variants a lever is measured with
lever_variants() {
	case $1 in
		weak) echo lto-weak ;;
		one) echo lto-one ;;
		gc|sra|partial|stack) echo "nolto-$1 lto-$1" ;;
		*) echo "kernel: unknown lever '$1' (weak, one, gc, sra, partial, stack)" >&2; return 1 ;;
	esac
}

# link_cost TARGET VARIANT: "WALL s, PEAK MiB" of relinking from vmlinux.o
# on (for an LTO variant, the LTO step; peak: the largest process), with
# no LTRANS cache: a cached link would measure the cache, not the lever
link_cost() {
	out=$cache/kbuild/$1-$2/link-cost.txt
	rm -f "$cache/kbuild/$1-$2/vmlinux.o"
	run="/usr/bin/time -f %e,%M -o $out"
	kmake "$1" "$2" -j"$jobs" LTO_LD_CACHE= vmlinux
	run=
	awk -F, '{ printf "%.0f s, %.0f MiB", $1, $2 / 1024 }' "$out"
}

# pct NEW OLD: NEW against OLD in percent, signed
pct() { awk -v n="$1" -v o="$2" 'BEGIN { printf "%+.1f%%", (n - o) * 100 / o }'; }

# dec TARGET VARIANT: the "size" dec of its vmlinux
dec() { size_of "$1" "$2" | cut -d' ' -f4; }

# lever_row TARGET LEVER: its row of the levers table, if it was measured
lever_row() {
	b=$cache/kbuild/$1
	n=$(dec "$1" nolto) l=$(dec "$1" lto)
	case $2 in
	gc|sra|partial|stack)
		[ -f "$b-lto-$2/link-cost.md" ] || return 0
		ng=$(dec "$1" "nolto-$2") lg=$(dec "$1" "lto-$2")
		case $2 in
			gc) what="gc-sections (\`LD_DEAD_CODE_DATA_ELIMINATION\`)" ;;
			sra) what="IPA-SRA (\`-fipa-sra\`; arch/arm turns it off for GCC PR65932)" ;;
			partial) what="no partial inlining (\`-fno-partial-inlining\`)" ;;
			stack) what="inlining not held back by stack growth (\`-fno-conserve-stack\`)" ;;
		esac
		echo "| $what | $ng ($(pct "$ng" "$n")) | $lg ($(pct "$lg" "$n"); $(pct "$lg" "$l") against LTO) | $(cat "$b-lto-$2/link-cost.md") |" ;;
	one|weak)
		v=lto-$2
		[ -f "$b-$v/link-cost.md" ] || return 0
		d=$(dec "$1" "$v")
		what="\`-flto-partition=one\`"
		[ "$2" = weak ] && what="weak definitions internalized (\`--lto-final-weak\`)"
		echo "| $what | | $d ($(pct "$d" "$n"); $(pct "$d" "$l") against LTO) | $(cat "$b-$v/link-cost.md") |" ;;
	esac
}

# levers TARGET [LEVERS]: each lever (weak, one, gc, sra, partial, stack;
# default all) built on TARGET beside what it changes: gc-sections and
# the compiler flags without and with LTO, one LTO partition and
# internalized weak definitions against the LTO build as configured; the
# table of sizes (dec) and link costs holds every lever measured so far
levers() {
	t=$1; shift
	[ $# -gt 0 ] || set -- weak one gc sra partial stack
	measured="$*"
	variants="nolto lto"
	for l in "$@"; do variants="$variants $(lever_variants "$l")"; done
	for v in $variants; do
		configure "$t" "$v"
		kmake "$t" "$v" -j"$jobs" vmlinux
		case $v in lto*) link_cost "$t" "$v" > "$cache/kbuild/$t-$v/link-cost.md" ;; esac
	done
	n=$(dec "$t" nolto) l=$(dec "$t" lto)
	{
		echo "| $t | no LTO: dec | LTO (whole-program): dec | LTO: vmlinux.o link and after (wall, peak RSS) |"
		echo "|---|---|---|---|"
		echo "| as configured | $n | $l ($(pct "$l" "$n")) | $(cat "$cache/kbuild/$t-lto/link-cost.md") |"
		for l in weak one gc sra partial stack; do lever_row "$t" "$l"; done
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD levers $t $measured\` (\`size\` dec of vmlinux, bytes; $(nproc) cores, kernel compiles through ccache, the \`vmlinux.o\` links without the LTRANS cache)."
	} > "$cache/levers-$t.md"
	cat "$cache/levers-$t.md"
	results_table "kernel-levers-$t" "$cache/levers-$t.md"
}

# median: the middle one of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# edit_levers TARGET [LEVERS]: the rebuild after a one-line edit of
# init/main.c, without LTO, with LTO as configured and with each lever
# that makes WPA cheaper (zstd1: IR written at zstd level 1 instead of
# GCC's 3; ggc: WPA's garbage collector held back up to a 1 GiB heap;
# icf: WPA without identical code folding),
# each built beside the others (compiles through ccache) and then edited
# ROUNDS (5) times in turns, after one edit not timed; the table of edit
# times (median), sizes and the peak memory of the rebuild
edit_levers() {
	t=$1; shift
	[ $# -gt 0 ] || set -- zstd1 ggc icf
	measured="$*" variants="nolto lto" rounds=${ROUNDS:-5}
	for l in "$@"; do variants="$variants lto-$l"; done
	for v in $variants; do
		configure "$t" "$v"
		kmake "$t" "$v" -j"$jobs" vmlinux
		: > "$cache/kbuild/$t-$v/edit-times.txt"
	done
	# (edits never made before, so that no cache answers a whole link;
	# round 0 is not timed: the first edit after a build does more)
	stamp=$(date +%s)
	for n in $(seq 0 "$rounds"); do
		edit_nth "$stamp-$n"
		for v in $variants; do
			out=/dev/null
			[ "$n" = 0 ] || out=$cache/kbuild/$t-$v/edit-times.txt
			run="/usr/bin/time -f %e,%M -a -o $out"
			kmake "$t" "$v" -j"$jobs" vmlinux || { run=; unedit_main; return 1; }
			run=
		done
	done
	unedit_main
	n=$(dec "$t" nolto) l=$(dec "$t" lto)
	nt=$(cut -d, -f1 "$cache/kbuild/$t-nolto/edit-times.txt" | median)
	{
		echo "| $t, rebuild after a one-line edit of init/main.c | wall (median of $rounds) | against no LTO | dec | peak RSS of the rebuild |"
		echo "|---|---|---|---|---|"
		for v in $variants; do
			f=$cache/kbuild/$t-$v/edit-times.txt
			w=$(cut -d, -f1 "$f" | median)
			m=$(cut -d, -f2 "$f" | sort -n | tail -1)
			d=$(dec "$t" "$v")
			case $v in
				nolto) what="no LTO" ;;
				lto) what="LTO as configured" ;;
				lto-zstd1) what="IR at zstd level 1 (\`-flto-compression-level=1\`, compile and link)" ;;
				lto-ggc) what="WPA's garbage collector from a 1 GiB heap (\`--param=ggc-min-heapsize=1048576\`)" ;;
				lto-icf) what="WPA without identical code folding (\`-fno-ipa-icf\`)" ;;
			esac
			ratio=$(awk -v a="$w" -v b="$nt" 'BEGIN { printf "%.2fx", a / b }')
			size="$d"
			[ "$v" = nolto ] || size="$d ($(pct "$d" "$n"); $(pct "$d" "$l") against LTO)"
			echo "| $what | $w s | $ratio | $size | $(awk -v k="$m" 'BEGIN { printf "%.0f MiB", k / 1024 }') |"
		done
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD edit-levers $t $measured\` ($(nproc) cores; builds through ccache, then one edit not timed and $rounds timed, each rebuilt in every folder in turn with its LTRANS cache; \`size\` dec of vmlinux, bytes)."
	} > "$cache/edit-levers-$t.md"
	cat "$cache/edit-levers-$t.md"
	results_table "kernel-edit-levers-$t" "$cache/edit-levers-$t.md"
}
