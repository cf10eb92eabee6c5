#!/bin/sh
# lto-sizediff --html: the page is opened in headless Chromium and its DOM
# read back (--dump-dom).  The images differ as LTO makes them differ: a
# function removed, a directory (c/) whose only function is inlined into
# main, a function grown.  The checks here recompute the treemap from the
# boxes the browser laid out: each symbol's box is classed by its change
# (removed, shrunk, same, grown, new), the leaves' areas add up to the
# treemap's, each in proportion to max(old, new), their bytes to OLD's
# and NEW's totals and, by directory, to the --json directories and to
# the directories' frames; the removed symbols and the vanished directory
# are boxes classed "removed"; the legend has a key per change; no
# self-check line is on the page, and no script error reaches the page
# or the console.  A script appended to a copy reads the colours the
# browser gives (each change its legend's colour), another sorts the
# table by clicking.  Broken pages (a wrong cell, a script error, areas
# of NEW alone, removed boxes classed as shrunk, no removed colour) must
# fail the same checks.  Then the errors: an unwritable --html path and
# two images of different architectures, each exit 1, named, with no
# output left behind.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
sd=$TOP_BUILDDIR/lto-sizediff
chromium=${CHROMIUM:-/usr/bin/chromium}

mkdir -p a b c
cat > a/a1.c <<'C'
static __attribute__((noinline)) int scale(int x, int k) { return x * k + (x >> 3) * k; }
int table_a[64] = { 1 };
int use_a(int x) { return scale(x, 7) + scale(x + 1, 7) + table_a[x & 63]; }
int removed_fn(int x) { return x * x * 13 + (x >> 1) * 5 - 77; }
C
cat > b/b1.c <<'C'
int bss_b[32];
int use_b(int x) { bss_b[x & 31] = x; return bss_b[(x + 1) & 31]; }
C
# called once, from main: inlined there, so that c/ vanishes with LTO
cat > c/c1.c <<'C'
int hash_c(const char *s, int n)
{
	unsigned h = 5381;
	for (int i = 0; i < n && s[i]; i++)
		h = h * 33 + (unsigned)s[i] * (unsigned)(i | 1);
	return (int)(h ^ (h >> 7));
}
C
cat > main.c <<'C'
int use_a(int), use_b(int), hash_c(const char *, int);
int main(int argc, char **argv) { return (use_a(argc) + use_b(argc) + hash_c(argv[0], argc)) & 0x7f; }
C
for u in a/a1 b/b1 c/c1 main; do
	gcc -O2 -c "$u.c" -o "$u.o" && gcc -O2 -flto -c "$u.c" -o "$u.lto.o" ||
		{ not_ok "compiling $u.c"; done_testing; exit 1; }
done
gcc -o prog-nolto main.o a/a1.o b/b1.o c/c1.o
# NEW from a whole-program ld -r with its report, when the plugin is built
report=
if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	"$LTO_LD" -r --lto-whole-program --lto-keep-symbol=main --lto-report=r.json \
		-o r.o main.lto.o a/a1.lto.o b/b1.lto.o c/c1.lto.o && gcc -o prog-lto r.o &&
		report=--report=r.json
else
	gcc -O2 -flto -o prog-lto main.lto.o a/a1.lto.o b/b1.lto.o c/c1.lto.o
fi
[ -x prog-lto ] || { not_ok "linking prog-lto"; done_testing; exit 1; }
set -- --objects=a/a1.o --objects=b/b1.o --objects=c/c1.o --objects=main.o $report \
	prog-nolto prog-lto

if "$sd" --html=page.html "$@" > with-html.txt 2>err.txt &&
   "$sd" "$@" > text.txt && "$sd" --json --top=0 "$@" > all.json; then
	ok "--html=page.html with --objects and ${report:-no report}"
else
	not_ok "--html=page.html"; diag "$(cat err.txt)"; done_testing; exit 1
fi
# what the page must show: a removed symbol and a directory that vanished
expect "the images: removed_fn and all of c/ are only in OLD (--json)" python3 -c '
import json, sys
j = json.load(open("all.json"))
sys.exit(not ([s for s in j["symbols"] if s["name"] == "removed_fn" and s["status"] == "vanished"] and
              [d for d in j["directories"] if d["directory"] == "c" and d["old"] and not d["new"]]))' ||
	diag "$(cat text.txt)"
expect "the text on stdout is the same with --html" cmp -s with-html.txt text.txt
# self-contained: nothing is loaded, and the CSP forbids it anyway
csp="Content-Security-Policy\" content=\"default-src 'none'"
expect "the page loads nothing from elsewhere (no src/href/URL; CSP default-src 'none')" \
	eval '! grep -Eiq "<(link|img|iframe)|(src|href)=|https?://|@import" page.html && grep -q "$csp" page.html' ||
	diag "$(grep -Eio '.{30}((src|href)=|https?://).{30}' page.html)"

# render FILE DOM: load FILE in headless Chromium, DOM to DOM, console to DOM.err
render() {
	rm -rf "$WORK/chrome"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$WORK/chrome" --enable-logging=stderr --v=0 \
		--dump-dom "file://$WORK/$1" > "$2" 2> "$2.err"
}

# What the browser drew, checked against the JSON; prints why not, exit 1.
# Every box is a div: "leaf CHANGE" (a symbol) or "frame CHANGE" (its
# directory), CHANGE one of removed shrunk same grown new, with data-old,
# data-new and data-dir; the legend has a "key" with a swatch per change.
cat > check-dom.py <<'PY'
import json, re, sys
from html.parser import HTMLParser

dom, data, errlog = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
CHANGES = ("removed", "shrunk", "same", "grown", "new")
boxes, keys, text, cur, ids = [], {}, {}, None, set()

def change(old, new):
    return ("removed" if not new else "new" if not old else
            "shrunk" if new < old else "grown" if new > old else "same")

class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        global cur
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if a.get("id"):
            ids.add(a["id"])
        if cls[:1] in (["leaf"], ["frame"]):
            st = dict((k.strip(), v.strip()) for k, v in
                      (d.split(":", 1) for d in a["style"].split(";") if ":" in d))
            px = lambda k: float(st[k].replace("px", ""))
            boxes.append(dict(kind=cls[0], cls=cls[1:], area=px("width") * px("height"),
                              old=int(a["data-old"]), new=int(a["data-new"]),
                              dir=a["data-dir"], title=a.get("title", "")))
        if cls == ["key"]:
            keys[a.get("data-change")] = []
        if cls[:1] == ["swatch"]:
            keys.setdefault(cls[1] if len(cls) > 1 else None, []).append(cls)
        if a.get("id") in ("errors", "changes", "reasons"):
            cur = a["id"]; text[cur] = []
    def handle_endtag(self, tag):
        global cur
        if (cur == "errors" and tag == "pre") or (cur in ("changes", "reasons") and tag == "table"):
            cur = None
    def handle_data(self, d):
        if cur:
            text[cur].append(d)

P().feed(dom)
W, H = 1200, 720
bad = []
if "".join(text.get("errors", ["missing"])).strip():
    bad.append("script errors in the page: " + "".join(text.get("errors", ["#errors missing"])))
if re.search(r"Uncaught|CONSOLE\(\d+\).*[Ee]rror", errlog):
    bad.append("console errors: " + errlog)
if "selfcheck" in ids or re.search(r"largest share error|MISMATCH|did not run", dom):
    bad.append("a self-check line on the page")
leaves = [b for b in boxes if b["kind"] == "leaf"]
frames = dict((b["dir"], b) for b in boxes if b["kind"] == "frame")
for b in boxes:
    if b["cls"] != [change(b["old"], b["new"])]:
        bad.append("%s %s: class %s for %d -> %d bytes" % (b["kind"], b["title"] or b["dir"], b["cls"], b["old"], b["new"]))
# the leaves tile the treemap, each box as large as max(old, new)
whole, most = W * H, sum(max(b["old"], b["new"]) for b in leaves)
area = sum(b["area"] for b in leaves)
if abs(area - whole) > whole * 1e-6:
    bad.append("leaf areas add up to %.3f, not %d" % (area, whole))
for b in leaves:
    if abs(b["area"] / whole - max(b["old"], b["new"]) / most) > 1e-6:
        bad.append("%s: area %.3f for max(%d, %d) bytes of %d" % (b["title"], b["area"], b["old"], b["new"], most))
# a directory's frame holds its leaves, with their bytes
for d, f in frames.items():
    mine = [b for b in leaves if b["dir"] == d]
    if abs(f["area"] - sum(b["area"] for b in mine)) > whole * 1e-6 or \
       (f["old"], f["new"]) != (sum(b["old"] for b in mine), sum(b["new"] for b in mine)):
        bad.append("the frame of %s: %.3f px, %d -> %d bytes; its leaves %.3f px, %d -> %d" %
                   (d, f["area"], f["old"], f["new"], sum(b["area"] for b in mine),
                    sum(b["old"] for b in mine), sum(b["new"] for b in mine)))
for side in "old", "new":
    if sum(b[side] for b in leaves) != data["totals"][side]:
        bad.append("leaf bytes add up to %d, not %s's %d" % (sum(b[side] for b in leaves), side, data["totals"][side]))
    bydir = {}
    for b in leaves:
        bydir[b["dir"]] = bydir.get(b["dir"], 0) + b[side]
    want = dict((d["directory"], d[side]) for d in data["directories"])
    if bydir != want:
        bad.append("%s bytes by directory %s, --json says %s" % (side, bydir, want))
# what LTO removed is drawn: the removed symbols, the vanished directories
for s in data["symbols"]:
    mine = [b for b in leaves if b["title"].startswith(s["name"] + " (")]
    if s["status"] == "vanished" and (not mine or sum(b["old"] for b in mine) != s["old"] or
                                      [b for b in mine if b["cls"] != ["removed"] or b["new"]]):
        bad.append("no removed box of %d bytes for %s: %s" % (s["old"], s["name"], mine))
vanished = [d["directory"] for d in data["directories"] if d["old"] and not d["new"]]
for d in vanished:
    f = frames.get(d)
    mine = [b for b in leaves if b["dir"] == d]
    if not f or f["cls"] != ["removed"] or f["area"] <= 0 or not mine or \
       [b for b in mine if b["cls"] != ["removed"]]:
        bad.append("the vanished directory %s: frame %s, leaves %s" % (d, f, mine))
if set(frames) != set(d["directory"] for d in data["directories"]):
    bad.append("frames %s, directories %s" % (sorted(frames), [d["directory"] for d in data["directories"]]))
for c in CHANGES:
    if c not in keys or keys.get(c) != [["swatch", c]]:
        bad.append("the legend's key for %s: %s" % (c, keys.get(c)))
changes = "".join(text.get("changes", []))
for s in data["symbols"]:
    if s["name"] not in changes:
        bad.append("the table of changes lacks " + s["name"])
if data["reasons"]:
    reasons = "".join(text.get("reasons", []))
    for k in data["reasons"]["kept"]:
        if "kept: " + k not in reasons:
            bad.append("the keep-reason table lacks " + k)
n = dict((c, len([b for b in leaves if b["cls"] == [c]])) for c in CHANGES)
print("\n".join(bad) if bad else "%d leaves (%s), vanished %s, %.1f px, %d -> %d bytes" %
      (len(leaves), ", ".join("%d %s" % (n[c], c) for c in CHANGES if n[c]), " ".join(vanished),
       area, data["totals"]["old"], data["totals"]["new"]))
sys.exit(1 if bad else 0)
PY

if [ ! -x "$chromium" ]; then
	skip_missing chromium "no $chromium: the page is not rendered"
else
	if render page.html dom.html && out=$(python3 check-dom.py dom.html all.json dom.html.err 2>&1); then
		ok "chromium: no script error, no self-check line; every box classed by its change; leaf areas tile the treemap, each as max(old, new); bytes and frames by directory as --json; removed_fn and c/ drawn as removed; a legend key per change; tables filled ($out)"
	else
		not_ok "chromium: the rendered page"; diag "$out" "$(tail -5 dom.html.err)"
	fi
	# the sortable table, through the page's own click handlers: a
	# script appended to a copy clicks "change" (largest first), copies
	# the order, then clicks "symbol" (by name)
	sed 's|^</body>$|<script>\
var t = document.getElementById("changes"), got = [];\
function col(i) { return Array.from(t.querySelectorAll("tbody tr")).map(function (r) { return r.children[i].textContent; }).join("\|"); }\
t.querySelectorAll("th")[4].click(); got.push(col(4));\
t.querySelectorAll("th")[0].click(); got.push(col(0));\
var p = document.createElement("p"); p.id = "sorted"; p.textContent = got.join("\\n"); document.body.appendChild(p);\
</script>\
</body>|' page.html > sorted.html
	if render sorted.html sorted.dom &&
	   out=$(python3 - sorted.dom all.json <<'PY'
import json, re, sys
dom, data = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = re.search(r'<p id="sorted">(.*?)</p>', dom, re.S)
assert m, "no result: the appended script did not run"
changes, names = [l.split("|") for l in m.group(1).split("\n")]
want = sorted(data["symbols"], key=lambda s: -abs(s["diff"]))
got = [abs(int(c.replace(",", "").replace("+", ""))) for c in changes]
assert got == [abs(s["diff"]) for s in want], (got, want)
assert names == sorted(s["name"] for s in data["symbols"]), names
print("%d rows" % len(names))
PY
); then
		ok "chromium: clicking 'change' sorts the changes largest first, 'symbol' by name ($out)"
	else
		not_ok "chromium: the table of changes sorts by the column clicked"; diag "$out" "$(tail -3 sorted.dom.err)"
	fi

	# broken pages must fail the same checks: a cell's bytes changed, a
	# script error, the areas of NEW alone (what LTO removed has none),
	# removed boxes classed as shrunk
	sed 's/^\(\[[0-9]*, "table_a", [0-9]*, \)\([0-9]*\)\]/\1999]/' page.html > wrong.html
	sed 's/^drawTables(report);$/drawTables(undefined);/' page.html > broken.html
	sed 's/Math\.max(c\[2\], c\[3\])/c[3]/g' page.html > newonly.html
	sed 's/^\t\treturn "removed";$/\t\treturn "shrunk";/' page.html > unclassed.html
	for bad in wrong broken newonly unclassed; do
		if cmp -s page.html $bad.html; then
			not_ok "control $bad.html: the edit did not apply"
		elif render $bad.html $bad.dom && ! python3 check-dom.py $bad.dom all.json $bad.dom.err > $bad.out 2>&1; then
			ok "control: the checks fail on $bad.html ($(head -1 $bad.out))"
		else
			not_ok "control: the checks pass on $bad.html"
		fi
	done

	# the colours the browser gives, read by a script appended to a copy:
	# each change's leaves have its legend swatch's colour, five distinct
	# ones; frames are transparent, dashed for a vanished directory
	cat > colours.js <<'JS'
<script>
var got = { leaves: {}, swatches: {}, frames: {} };
function add(set, key, value) {
	set[key] = set[key] || [];
	if (set[key].indexOf(value) < 0)
		set[key].push(value);
}
document.querySelectorAll(".leaf").forEach(function (e) {
	add(got.leaves, e.classList[1], getComputedStyle(e).backgroundColor);
});
document.querySelectorAll(".swatch").forEach(function (e) {
	add(got.swatches, e.classList[1], getComputedStyle(e).backgroundColor);
});
document.querySelectorAll(".frame").forEach(function (e) {
	var st = getComputedStyle(e);
	add(got.frames, e.dataset.dir, st.outlineStyle + " " + st.backgroundColor);
});
var p = document.createElement("p");
p.id = "colours";
p.textContent = JSON.stringify(got);
document.body.appendChild(p);
</script>
JS
	cat > check-colours.py <<'PY'
import json, re, sys
dom, data = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = re.search(r'<p id="colours">(.*?)</p>', dom, re.S)
assert m, "no result: the appended script did not run"
got = json.loads(m.group(1).replace("&quot;", '"'))
sw, none = got["swatches"], "rgba(0, 0, 0, 0)"
changes = ["removed", "shrunk", "same", "grown", "new"]
assert sorted(sw) == sorted(changes) and all(len(sw[c]) == 1 and sw[c][0] != none for c in changes), sw
assert len(set(sw[c][0] for c in changes)) == 5, ("not five colours", sw)
for c, colours in got["leaves"].items():
    assert colours == sw[c], ("leaves", c, colours, "swatch", sw[c])
assert "removed" in got["leaves"], got["leaves"]
for d in data["directories"]:
    want = "dashed" if d["old"] and not d["new"] else "solid"
    assert got["frames"][d["directory"]] == [want + " " + none], (d, got["frames"])
print(", ".join("%s %s" % (c, sw[c][0]) for c in changes))
PY
	sed '/^\.leaf\.removed,/d' page.html > nocolour.html
	for page in page nocolour; do
		awk '/^<\/body>$/ { while ((getline l < "colours.js") > 0) print l } { print }' \
			$page.html > $page-colours.html
		render $page-colours.html $page-colours.dom
		python3 check-colours.py $page-colours.dom all.json > $page-colours.out 2>&1
		echo $? > $page-colours.rc
	done
	if [ "$(cat page-colours.rc)" = 0 ]; then
		ok "chromium: each change's boxes have its legend's colour, five colours; frames transparent, c/'s dashed ($(cat page-colours.out))"
	else
		not_ok "chromium: the colours of the boxes"; diag "$(cat page-colours.out)"
	fi
	if cmp -s page.html nocolour.html; then
		not_ok "control nocolour.html: the edit did not apply"
	elif [ "$(cat nocolour-colours.rc)" != 0 ]; then
		ok "control: the colour check fails without the removed colour ($(tail -1 nocolour-colours.out))"
	else
		not_ok "control: the colour check passes without the removed colour"
	fi
fi

# errors: exit 1, the file named, nothing written (not even stdout's text)
check_html_error() {
	desc=$1 pattern=$2; shift 2
	out=$("$@" 2>err.txt); rc=$?
	expect "$desc" eval '[ $rc -eq 1 ] && [ -z "$out" ] && grep -Eq -- "$pattern" err.txt' ||
		diag "exit $rc" "$(cat err.txt)" "$out"
}
check_html_error "--html into a missing directory: exit 1, named" \
	"cannot create a temporary file for no/such/dir/p\.html in no/such/dir" \
	"$sd" --html=no/such/dir/p.html prog-nolto prog-lto
: > afile
check_html_error "--html under a regular file: exit 1, named" "afile/p\.html.*Not a directory" \
	"$sd" --html=afile/p.html prog-nolto prog-lto
if [ "$(id -u)" -ne 0 ]; then
	mkdir ro && chmod 555 ro
	check_html_error "--html into a read-only directory: exit 1, named" "ro/p\.html.*Permission denied" \
		"$sd" --html=ro/p.html prog-nolto prog-lto
else
	skip "--html into a read-only directory: root writes there anyway"
fi
"$sd" --html= prog-nolto prog-lto > out.txt 2>err.txt; rc=$?
expect "--html= (empty): exit 2, said" \
	eval '[ $rc -eq 2 ] && [ ! -s out.txt ] && grep -q -- "--html: the page needs a file name" err.txt' ||
	diag "exit $rc" "$(cat err.txt)"

if have arm-linux-gnueabihf-gcc; then
	arm-linux-gnueabihf-gcc -O2 -o prog-arm main.c a/a1.c b/b1.c c/c1.c
	echo keep > kept.html
	check_html_error "images of two architectures: exit 1, both named with their machines" \
		"prog-nolto is for [^ ]+ \(ELF machine [0-9]+\) but prog-arm is for ARM \(ELF machine 40\)" \
		"$sd" --html=kept.html --nm=nm prog-nolto prog-arm
	expect "...and the existing page is left as it was, with no temporary file" \
		eval '[ "$(cat kept.html)" = keep ] && [ -z "$(ls -A | grep "^\.kept\.html")" ]'
else
	skip_missing arm-linux-gnueabihf-gcc "two architectures not tested"
fi
done_testing
