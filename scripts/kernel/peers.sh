# scripts/kernel.sh's peers: one target built by GCC without LTO and with
# lto-ld's LTO (as configured, and with TRIM_UNUSED_KSYMS), and by Clang
# without LTO, with ThinLTO and with full LTO, side by side in one run on
# one tree: sizes, build and rebuild times, the LTO link's cost, a boot
# each.  Sourced by scripts/kernel.sh.

peer_variants="nolto lto lto-trim clang clang-thin clang-full"

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

# peer_measure TARGET VARIANT: a clean build of everything (make's
# default goal: vmlinux, the image, the modules), the rebuilds after
# touching and after editing init/main.c, timed into $times; the
# vmlinux.o link from scratch (link-cost.md); a boot
peer_measure() {
	b=$cache/kbuild/$1-$2
	rm -rf "$b"
	configure "$1" "$2"
	timed "$1-$2-build" "$1" "$2" -j"$jobs" all
	touch "$tree/init/main.c"
	timed "$1-$2-rebuild" "$1" "$2" -j"$jobs" all
	edit_main
	timed "$1-$2-edit" "$1" "$2" -j"$jobs" all
	# (without the LTO caches: lto-ld's, and ThinLTO's)
	rm -rf "$b/.thinlto-cache"
	link_cost "$1" "$2" > "$b/link-cost.md"
	unedit_main
	images "$1" "$2"
	if boot "$1" "$2"; then echo "$1-$2-boot,userspace /init ran" >> "$times"
	else echo "$1-$2-boot,FAILED" >> "$times"; fi
}

# peer_row TARGET VARIANT: its row of the peers table
peer_row() {
	b=$cache/kbuild/$1-$2
	set -- "$1" "$2" $(size_of "$1" "$2") "$(stat -c %s "$(image_of "$1" "$2")")" \
		"$(dec "$1" nolto)" "$(stat -c %s "$(image_of "$1" nolto)")"
	awk -F, -v t="$1" -v v="$2" -v label="$(peer_label "$2")" -v dec="$6" -v img="$7" \
		-v ndec="$8" -v nimg="$9" -v link="$(cat "$b/link-cost.md")" -f - "$times" <<'AWK'
$1 == t "-nolto-build" { nb = $2; nc = $3 + $4 }
$1 == t "-" v "-build" { wall = $2; cpu = $3 + $4 }
$1 == t "-" v "-rebuild" { touch = $2 }
$1 == t "-" v "-edit" { edit = $2 }
$1 == t "-" v "-boot" { boot = $2 }
END {
	printf "| %s | %d (%+.1f%%) | %d (%+.1f%%) | %.0f s (%.0f s CPU), %.2fx | %.1f s | %.1f s | %s | %s |\n",
		label, dec, (dec - ndec) * 100 / ndec, img, (img - nimg) * 100 / nimg,
		wall, cpu, wall / nb, touch, edit, link, boot
}
AWK
}

# peers TARGET: every peer variant of TARGET measured in turn, and the
# table, into docs/results.md where it has markers (kernel-peers-TARGET)
peers() {
	times=$cache/peers-$1.txt
	: > "$times"
	for v in $peer_variants; do peer_measure "$1" "$v"; done
	{
		echo "| $1 | \`size\` dec of vmlinux (against GCC, no LTO) | boot image bytes (zImage, bzImage) | full build wall (CPU), against GCC without LTO | rebuild after touch init/main.c | rebuild after a one-line edit | vmlinux.o link from scratch, no LTO cache (wall, peak RSS) | boot (QEMU) |"
		echo "|---|---|---|---|---|---|---|---|"
		for v in $peer_variants; do peer_row "$1" "$v"; done
		echo
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, kernel compiles without ccache, by \`scripts/kernel.sh LTO_LD peers $1\` ($(gcc --version | head -1), $(clang --version | head -1))."
	} > "$cache/peers-$1.md"
	cat "$cache/peers-$1.md"
	results_table "kernel-peers-$1" "$cache/peers-$1.md"
	grep -q FAILED "$times" && return 1
	return 0
}
