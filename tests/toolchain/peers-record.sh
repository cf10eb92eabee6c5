#!/bin/sh
# kernel.sh peers' record, on made-up records (no kernel is built): a
# variant measured on the same tree and tools is kept, one left half
# measured is dropped, and so is one measured with another identity when
# the run measures it again (kept and marked when not); each row's times
# are against the same compiler without LTO measured with the same
# sources; the date line names the runs; a variant that did not build
# has a row that says why, and one whose kernel goes without some of
# GCC's mitigations says which.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

top=$TOP_SRCDIR
. "$top/scripts/kernel/tree.sh"
. "$top/scripts/kernel/peers.sh"
peers_dir=$WORK

# record LINES...: the record of target t
record() { printf '%s\n' "$@" > "$WORK/peers-t.txt"; }

nolto_id=$(peer_id t nolto)
lto_id=$(peer_id t lto)
clang_id=$(peer_id t clang)
expect "the identity is the same when nothing changed" [ "$nolto_id" = "$(peer_id t nolto)" ]
expect "GCC without LTO and lto-ld's LTO have their own identities" [ "$nolto_id" != "$lto_id" ]
expect "Clang without LTO has its own identity" [ "$clang_id" != "$nolto_id" ]

# ---- what a later run keeps ----
record "# made up" \
	"t-nolto-id,$nolto_id" "t-nolto-build,100.0,150,30" \
	"t-nolto-size,1,1,1,1000,500" "t-nolto-done,2026-12-07,2 cores of A" \
	"t-lto-id,$lto_id" "t-lto-build,120.0,170,30" \
	"t-lto-trim-id,$(peer_id t lto-trim)" "t-lto-trim-build,121.0,170,30" "t-lto-trim-done,2026-12-07,2 cores of A" \
	"t-clang-id,0000000000000000" "t-clang-build,90.0,150,20" \
	"t-clang-size,1,1,1,900,450" "t-clang-done,2026-12-06,2 cores of B"
cp "$WORK/peers-t.txt" made-up.txt
peers_start t "clang-thin" 2> start.err
expect "a variant measured with another identity, not measured by this run, is kept" grep -qx "t-clang-build,90.0,150,20" "$times"
expect "the run says it kept it under its old identity" grep -q "kept and marked: clang\$" start.err
# marked VARIANT: its row carries the mark of an old identity
marked() { peer_row t "$1" | grep -qF "| $(peer_label "$1") \\* |"; }
expect "its row is marked" marked clang
expect "the row of a variant under today's identity is not" output_has "^| GCC, no LTO | 1000 " peer_row t nolto
cp made-up.txt "$WORK/peers-t.txt"
peers_start t "nolto clang" 2> start.err
expect "a variant measured on the same tree and tools is kept" grep -qx "t-nolto-build,100.0,150,30" "$times"
expect "a variant left half measured is dropped" sh -c "! grep -qE '^t-lto-(id|build),' '$times'"
expect "dropping lto keeps lto-trim's lines" grep -qx "t-lto-trim-build,121.0,170,30" "$times"
expect "a variant measured with another identity is dropped when the run measures it" sh -c "! grep -q '^t-clang-' '$times'"
expect "the run says what it kept" grep -q "tools: nolto lto-trim\$" start.err
expect "and that it kept nothing else" sh -c "! grep -q 'kept and marked' start.err"
expect "the record's header stays" grep -qx "# made up" "$times"

# ---- rows and the date line ----
record "t-nolto-build,100.0,150,30" "t-nolto-rebuild,5.0,1,1" "t-nolto-edit,6.0,1,1" \
	"t-nolto-link,10 s, 700 MiB" "t-nolto-size,1,1,1,1000,500" "t-nolto-boot,userspace /init ran" \
	"t-nolto-done,2026-12-07,2 cores of A" \
	"t-lto-build,125.0,170,30" "t-lto-edit,15.0,1,1" "t-lto-size,1,1,1,970,490" "t-lto-boot,userspace /init ran" \
	"t-lto-done,2026-12-07,2 cores of A" \
	"t-clang-build,200.0,150,20" "t-clang-size,1,1,1,990,495" "t-clang-done,2026-12-08,2 cores of B" \
	"t-clang-thin-build,300.0,150,20" "t-clang-thin-size,1,1,1,980,480" "t-clang-thin-done,2026-12-08,2 cores of B" \
	"t-clang-full-boot,FAILED: not built: ld.lld: error: out of memory" "t-clang-full-done,2026-12-08,2 cores of B"
times=$WORK/peers-t.txt
row() { peer_row t "$1" | tr -s ' '; }
expect "lto-ld's row: sizes against GCC without LTO, its build 1.25x that" output_has "970 (-3.0%) | 490 (-2.0%) | 125 s (200 s CPU), 1.25x" row lto
expect "lto-ld's one-line edit rebuild against GCC's without LTO: 2.50x" output_has "| 15.0 s, 2.50x |" row lto
expect "ThinLTO's build is against Clang without LTO (1.50x), its size against GCC's" output_has "980 (-2.0%) | 480 (-4.0%) | 300 s (170 s CPU), 1.50x" row clang-thin
expect "a variant that did not build says why" output_has "| FAILED: not built: ld.lld: error: out of memory |" row clang-full
expect "the date line names each run, its date, processor and variants" output_has \
	"2026-12-07 on 2 cores of A (nolto, lto); 2026-12-08 on 2 cores of B (clang, clang-thin, clang-full)" peers_when t
record "t-nolto-mitigations,RETPOLINE RETHUNK SLS " "t-nolto-done,2026-12-07,2 cores of A" \
	"t-clang-mitigations,RETPOLINE " "t-clang-size,1,1,1,990,495" "t-clang-boot,userspace /init ran" \
	"t-clang-done,2026-12-07,2 cores of A"
expect "a kernel without some of GCC's mitigations says which" \
	output_has "| userspace /init ran; without RETHUNK, SLS |" row clang

record "t-nolto-build,100.0,150,30" "t-nolto-done,2026-12-07,2 cores of A" \
	"t-lto-build,125.0,170,30" "t-lto-size,1,1,1,970,490" "t-lto-done,2026-12-08,2 cores of B"
expect "a row measured on another machine than its base has no ratio" \
	output_has "125 s (200 s CPU), nolto measured on another machine |" row lto
record "t-clang-id,$clang_id" "t-clang-build,200.0,150,20" "t-clang-edit,5.0,1,1" \
	"t-clang-done,2026-12-08,2 cores of B" \
	"t-clang-thin-id,0000000000000000" "t-clang-thin-build,300.0,150,20" "t-clang-thin-edit,20.0,1,1" \
	"t-clang-thin-size,1,1,1,980,480" "t-clang-thin-done,2026-12-07,2 cores of B"
expect "a row measured with other sources than its base has no ratio" \
	output_has "300 s (170 s CPU), clang measured with other sources | 0.0 s | 20.0 s |" row clang-thin
record "t-lto-build,125.0,170,30" "t-lto-size,1,1,1,970,490" "t-lto-done,2026-12-07,2 cores of A"
expect "a row whose base is not measured yet says so" output_has "| 970 | 490 | 125 s (200 s CPU), no nolto row yet |" row lto
expect "a variant not measured yet says which command measures it" \
	output_has "not measured yet: \`scripts/kernel.sh LTO_LD peers t clang\` measures it" row clang
done_testing
