# scripts/kernel.sh's peers: one target built by GCC without LTO and with
# lto-ld's LTO (as configured, and with TRIM_UNUSED_KSYMS), and by Clang
# without LTO, with ThinLTO and with full LTO, side by side on one tree:
# sizes, build and rebuild times, the LTO link's cost, a boot each.  The
# six take longer than a working session on two cores, and a session may
# start on a fresh machine, so what each variant measured is kept in the
# project (docs/peers-TARGET.txt, committed): a later run keeps the
# variants measured on the same tree, configuration and tools and goes on
# with the rest.  Sourced by scripts/kernel.sh.

peer_variants="nolto lto lto-trim clang clang-thin clang-full"
# (where the records are kept: in the project, committed)
peers_dir=$top/docs

# peer_label VARIANT: what the variant's row is
peer_label() {
	case $1 in
		nolto) echo "GCC, no LTO" ;;
		lto) echo "GCC LTO through lto-ld, every export kept" ;;
		lto-trim) echo "GCC LTO through lto-ld, \`TRIM_UNUSED_KSYMS\`" ;;
		clang) echo "Clang, no LTO (\`LLVM=1\`)" ;;
		clang-thin) echo "Clang ThinLTO (\`LTO_CLANG_THIN\`)" ;;
		clang-full) echo "Clang full LTO (\`LTO_CLANG_FULL\`)" ;;
	esac
}

# peer_base VARIANT: the row its times are compared with: the same
# compiler without LTO (measured in the same run, on the same machine)
peer_base() {
	case $1 in clang*) echo clang ;; *) echo nolto ;; esac
}

# peer_id TARGET VARIANT: what the variant's measurements depend on: the
# kernel source and the series, the configuration and the scripts that
# configure, build and boot, its compiler and linker, the cores, and for
# GCC's rows lto-ld's sources: GCC without LTO too, since lto-ld's rows
# are timed against it, so a new lto-ld measures all three again, in one
# run.  Not this file, so the table's layout can change without
# measuring again.
peer_id() {
	{
		series_id
		sha256sum < "$tarball"
		cat $(fragments "$1" "$2") "$top/scripts/kernel/tree.sh" \
			"$top/scripts/kernel/build-boot.sh"
		case $2 in
			clang*) "${llvm}clang" --version; "${llvm}ld.lld" --version ;;
			*) gcc --version; ld --version ;;
		esac
		case $2 in clang*) ;; *)
			(cd "$top" && cat configure.ac Makefile.am \
				$(find wrapper plugin gcc-plugin lib -name '*.[ch]' | LC_ALL=C sort)) ;;
		esac
		nproc
	} 2>&1 | sha256sum | cut -c1-16
}

# machine: the cores and the processor, for the table's date line
machine() {
	echo "$(nproc) cores of $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1 | tr ',' ' ')"
}

# peer_measure TARGET VARIANT: a clean build of everything (make's
# default goal: vmlinux, the image, the modules), the rebuilds after
# touching and after editing init/main.c, timed into $times; the
# vmlinux.o link from scratch; sizes; a boot
peer_measure() {
	b=$cache/kbuild/$1-$2
	rm -rf "$b"
	configure "$1" "$2"
	# (the mitigations its configuration resolved to: under a compiler
	# that lacks one, the same configuration gives another kernel)
	echo "$1-$2-mitigations,$(sed -n 's/^CONFIG_\(MITIGATION_[A-Z0-9_]*\)=y$/\1/p' "$b/.config" | tr '\n' ' ')" >> "$times"
	# (a variant that does not build is a row that says why)
	if ! timed "$1-$2-build" "$1" "$2" -j"$jobs" all 2> "$b.err"; then
		cat "$b.err" >&2
		echo "$1-$2-boot,FAILED: not built: $(grep -m1 -i 'error' "$b.err" | tr ',|' '; ')" >> "$times"
		rm -f "$b.err"
		return 0
	fi
	cat "$b.err" >&2
	rm -f "$b.err"
	touch "$tree/init/main.c"
	timed "$1-$2-rebuild" "$1" "$2" -j"$jobs" all
	edit_main
	timed "$1-$2-edit" "$1" "$2" -j"$jobs" all
	# (without the LTO caches: lto-ld's, and ThinLTO's)
	rm -rf "$b/.thinlto-cache"
	echo "$1-$2-link,$(link_cost "$1" "$2")" >> "$times"
	unedit_main
	images "$1" "$2"
	echo "$1-$2-size,$(size_of "$1" "$2" | tr ' ' ,),$(stat -c %s "$(image_of "$1" "$2")")" >> "$times"
	if boot "$1" "$2"; then echo "$1-$2-boot,userspace /init ran" >> "$times"
	else echo "$1-$2-boot,FAILED" >> "$times"; fi
}

# peer_row TARGET VARIANT: its row of the peers table, from $times;
# marked (*) if measured under an old identity
peer_row() {
	base=$(peer_base "$2") old_id=1 old_base=1
	peer_current "$1" "$2" && old_id=
	peer_current "$1" "$base" && old_base=
	awk -F, -v t="$1" -v v="$2" -v label="$(peer_label "$2")" -v base="$base" \
		-v old_id="$old_id" -v old_base="$old_base" -f - "$times" <<'AWK'
function pct(n, o) { return o ? sprintf(" (%+.1f%%)", (n - o) * 100 / o) : "" }
function times(n, o) { return o ? sprintf(", %.2fx", n / o) : "" }
$1 == t "-" base "-done" { bwhere = substr($0, length($1) + 13) }
$1 == t "-" base "-build" { nb = $2 }
$1 == t "-" base "-rebuild" { ntouch = $2 }
$1 == t "-" base "-edit" { nedit = $2 }
$1 == t "-nolto-size" { ndec = $5; nimg = $6 }
$1 == t "-nolto-mitigations" { nmit = $2 }
$1 == t "-" v "-mitigations" { mit = $2 }
$1 == t "-" v "-size" { dec = $5; img = $6 }
$1 == t "-" v "-build" { wall = $2; cpu = $3 + $4 }
$1 == t "-" v "-rebuild" { touch = $2 }
$1 == t "-" v "-edit" { edit = $2 }
$1 == t "-" v "-link" { link = substr($0, length($1) + 2) }
$1 == t "-" v "-boot" { boot = $2 }
$1 == t "-" v "-done" { measured = 1; where = substr($0, length($1) + 13) }
END {
	if (measured && old_id) label = label " \\*"
	# (GCC's mitigations that this kernel goes without)
	if (nmit != "" && mit != "") {
		n = split(nmit, want, " ")
		for (i = 1; i <= n; i++)
			if (index(" " mit " ", " " want[i] " ") == 0) lacks = lacks (lacks == "" ? "" : ", ") want[i]
		if (lacks != "") boot = boot "; without " lacks
	}
	if (!measured) { printf "| %s | not measured yet: `scripts/kernel.sh LTO_LD peers %s %s` measures it | | | | | | |\n", label, t, v; exit }
	if (dec == "") { printf "| %s | | | | | | | %s |\n", label, boot; exit }
	# (times are compared on one machine only)
	if (nb && where != bwhere) { nb = ntouch = nedit = 0; why = base " measured on another machine" }
	# (nor against a base measured with other sources than the row)
	else if (nb && old_id != old_base) { nb = ntouch = nedit = 0; why = base " measured with other sources" }
	else if (!nb) why = "no " base " row yet"
	ratio = nb ? sprintf("%.2fx", wall / nb) : why
	printf "| %s | %d%s | %d%s | %.0f s (%.0f s CPU), %s | %.1f s%s | %.1f s%s | %s | %s |\n",
		label, dec, pct(dec, ndec), img, pct(img, nimg), wall, cpu, ratio,
		touch, times(touch, ntouch), edit, times(edit, nedit), link, boot
}
AWK
}

# peer_current TARGET VARIANT: the variant's record is under today's
# identity
peer_current() {
	grep -qx "$1-$2-id,$(peer_id "$1" "$2")" "$times"
}

# peers_start TARGET VARIANTS: $times, the record of TARGET's peers,
# without the lines of a variant that an earlier run left half measured,
# nor those of the VARIANTS this run measures that were measured on
# another tree, configuration or tools.  A variant this run does not
# measure keeps its record under an old identity: its row is marked, and
# the table keeps its numbers until a run measures it again.
peers_start() {
	times=$peers_dir/peers-$1.txt
	[ -f "$times" ] || cat > "$times" <<EOF
# What \`scripts/kernel.sh LTO_LD peers $1\` measured, variant by variant:
# a later run keeps the variants whose identity (peer_id) is unchanged.
EOF
	kept= old=
	for v in $peer_variants; do
		if grep -q "^$1-$v-done," "$times"; then
			if peer_current "$1" "$v"; then kept="$kept $v"; continue; fi
			case " $2 " in *" $v "*) ;; *) old="$old $v"; continue ;; esac
		fi
		# (its own lines only: lto's are not lto-trim's, whose next word is no line kind)
		grep -v "^$1-$v-[a-z]*," "$times" > "$times.tmp" || true
		mv "$times.tmp" "$times"
	done
	echo "kernel: peers $1: measured before, on the same tree and tools:${kept:- none}" >&2
	[ -z "$old" ] ||
		echo "kernel: peers $1: measured with other sources, kept and marked:$old" >&2
}

# peers_when TARGET: when and where the variants were measured, from
# their done lines: "DATE on MACHINE (variants)" for each run
peers_when() {
	sed -n "s/^$1-\\(.*\\)-done,\\([^,]*\\),\\(.*\\)/\\2 on \\3|\\1/p" "$times" |
		awk -F'|' '{ if (!($1 in v)) order[++n] = $1; v[$1] = v[$1] (v[$1] == "" ? "" : ", ") $2 }
		END { for (i = 1; i <= n; i++) printf "%s%s (%s)", (i > 1 ? "; " : ""), order[i], v[order[i]] }'
}

# peers TARGET [VARIANTS]: each peer variant of TARGET (or those of
# VARIANTS) measured in turn, but for those an earlier run measured on
# the same tree and tools; then the table of those measured so far, into
# docs/results.md (kernel-peers-TARGET)
peers() {
	t=$1; shift
	[ $# -gt 0 ] || set -- $peer_variants
	for v in "$@"; do
		case " $peer_variants " in *" $v "*) ;; *)
			echo "kernel: peers: no variant '$v' (variants: $peer_variants)" >&2; return 2 ;; esac
	done
	no_launcher peers
	peers_start "$t" "$*"
	for v in "$@"; do
		grep -q "^$t-$v-done," "$times" && continue
		echo "$t-$v-id,$(peer_id "$t" "$v")" >> "$times"
		peer_measure "$t" "$v"
		echo "$t-$v-done,$(date -u +%Y-%m-%d),$(machine)" >> "$times"
	done
	set -- "$t"
	left=
	for v in $peer_variants; do
		peer_current "$1" "$v" && grep -q "^$1-$v-done," "$times" || left="$left $v"
	done
	[ -z "$left" ] ||
		echo "kernel: peers $1: still to measure:$left (scripts/kernel.sh LTO_LD peers $1 goes on with them)" >&2
	{
		echo "| $1 | \`size\` dec of vmlinux (against GCC, no LTO) | boot image bytes (zImage, bzImage) | full build wall (CPU), against the same compiler without LTO | rebuild after touch init/main.c (against the same) | rebuild after a one-line edit (against the same) | vmlinux.o link from scratch, no LTO cache (wall, peak RSS) | boot (QEMU) |"
		echo "|---|---|---|---|---|---|---|---|"
		for v in $peer_variants; do peer_row "$1" "$v"; done
		echo
		[ -z "$old" ] || printf '%s\n\n' "\\* Measured with other sources than today's (lto-ld, the kernel tree, the configuration, the build scripts or the compiler): \`scripts/kernel.sh LTO_LD peers $1$old\` measures them again."
		echo "Measured $(peers_when "$1") on the same tree and configuration, kernel compiles without ccache, by \`scripts/kernel.sh LTO_LD peers $1\` ($(gcc --version | head -1), $("${llvm}clang" --version | head -1))."
	} > "$cache/peers-$1.md"
	cat "$cache/peers-$1.md"
	results_table "kernel-peers-$1" "$cache/peers-$1.md"
	grep -q FAILED "$times" && return 1
	return 0
}
