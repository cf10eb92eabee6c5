/*
 * lto-sizediff --html: the page's script, compiled into lto-sizediff
 * (tools/sizediff-html.c).  It reads the two JSON blocks of the page and
 * draws the treemap of OLD and NEW together (directories, then symbols,
 * squarified, each box's area proportional to the larger of its two
 * sizes, its class, and so its colour, what became of it: removed,
 * shrunk, same, grown or new), its legend and the tables.  Script errors
 * go into #errors, where the user sees them and a test reading the page's
 * DOM (chromium --dump-dom) finds them.
 */
"use strict";

var errorsShown = document.getElementById("errors");
window.addEventListener("error", function (e) {
	errorsShown.textContent += "script error: " + e.message + " (line " +
		e.lineno + ")\n";
});

var WIDTH = 1200, HEIGHT = 720;

function el(tag, text, cls) {
	var e = document.createElement(tag);
	if (text !== undefined)
		e.textContent = text;
	if (cls)
		e.className = cls;
	return e;
}

function bytes(n) {
	return n.toLocaleString("en-US");
}

function signed(n) {
	return (n > 0 ? "+" : "") + bytes(n);
}

/*
 * What became of a box from OLD to NEW: its class, which gives its colour
 * (the page's style), and the legend's words for it.
 */
var CHANGES = [
	{ cls: "removed", words: "removed, only in OLD" },
	{ cls: "shrunk", words: "shrank" },
	{ cls: "same", words: "unchanged" },
	{ cls: "grown", words: "grew" },
	{ cls: "new", words: "new, only in NEW" }
];

function change(oldSize, newSize) {
	if (!newSize)
		return "removed";
	if (!oldSize)
		return "new";
	return newSize < oldSize ? "shrunk" : newSize > oldSize ? "grown" : "same";
}

/* The worst aspect ratio of a row of areas laid along a side of SIDE. */
function worst(sum, min, max, side) {
	var s2 = side * side, sum2 = sum * sum;
	return Math.max(s2 * max / sum2, sum2 / (s2 * min));
}

/*
 * Squarified treemap (Bruls, Huizing, van Wijk): ITEMS, largest value
 * first, fill the rectangle (x, y, w, h); PLACE(item, x, y, w, h) for each.
 */
function squarify(items, x, y, w, h, place) {
	var total = 0, i = 0;
	items.forEach(function (it) { total += it.value; });
	if (!total)
		return;
	var scale = w * h / total;
	while (i < items.length) {
		var side = Math.min(w, h), sum = 0, min = Infinity, max = 0;
		var start = i, best = Infinity;
		while (i < items.length) {
			var a = items[i].value * scale;
			var ratio = worst(sum + a, Math.min(min, a), Math.max(max, a), side);
			if (i > start && ratio > best)
				break;
			sum += a; min = Math.min(min, a); max = Math.max(max, a);
			best = ratio;
			i++;
		}
		/*
		 * The row goes along the shorter side: a column at the left of
		 * a wide rectangle, a row at the top of a tall one.  The last
		 * row, and the last box of a row, take what is left, so that
		 * rounding leaves no gap.
		 */
		var wide = w >= h, pos = 0;
		var thick = i === items.length ? (wide ? w : h) : sum / side;
		for (var k = start; k < i; k++) {
			var len = k === i - 1 ? side - pos : items[k].value * scale / thick;
			if (wide)
				place(items[k], x, y + pos, thick, len);
			else
				place(items[k], x + pos, y, len, thick);
			pos += len;
		}
		if (wide) {
			x += thick; w -= thick;
		} else {
			y += thick; h -= thick;
		}
	}
}

function byValue(a, b) {
	return b.value - a.value || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function px(v) {
	return v.toFixed(4) + "px";
}

/* A box of the treemap, CLS "leaf" or "frame", for B (name, oldSize, newSize). */
function box(cls, b, x, y, w, h) {
	var e = el("div", undefined, cls + " " + change(b.oldSize, b.newSize));
	e.style.left = px(x); e.style.top = px(y);
	e.style.width = px(w); e.style.height = px(h);
	e.dataset.old = b.oldSize;
	e.dataset["new"] = b.newSize;
	return e;
}

/* "1,234 -> 567 bytes (-667)" */
function sizes(b) {
	return bytes(b.oldSize) + " \u2192 " + bytes(b.newSize) + " bytes (" +
		signed(b.newSize - b.oldSize) + ")";
}

/*
 * Directories, then their symbols, each as large as the larger of its
 * bytes in OLD and in NEW: what LTO removed keeps its place beside what
 * stayed, a directory with nothing left in NEW included.
 */
function drawTreemap(C, map) {
	var dirs = C.dirs.map(function (name) {
		return { name: name, oldSize: 0, newSize: 0, value: 0, cells: [] };
	});
	C.cells.forEach(function (c) {
		var d = dirs[c[0]];
		d.cells.push({ name: c[1], oldSize: c[2], newSize: c[3],
			value: Math.max(c[2], c[3]) });
		d.oldSize += c[2];
		d.newSize += c[3];
		d.value += Math.max(c[2], c[3]);
	});
	dirs.sort(byValue);
	map.style.width = WIDTH + "px";
	map.style.height = HEIGHT + "px";
	squarify(dirs, 0, 0, WIDTH, HEIGHT, function (d, x, y, w, h) {
		d.cells.sort(byValue);
		squarify(d.cells, x, y, w, h, function (c, cx, cy, cw, ch) {
			var leaf = box("leaf", c, cx, cy, cw, ch);
			leaf.dataset.dir = d.name;
			leaf.title = c.name + " (" + d.name + "): " + sizes(c) + ", " +
				change(c.oldSize, c.newSize);
			if (cw > 50 && ch > 14)
				leaf.textContent = c.name;
			map.appendChild(leaf);
		});
		var frame = box("frame", d, x, y, w, h);
		frame.dataset.dir = d.name;
		var label = d.name + ": " + sizes(d);
		if (w > 60 && h > 20)
			frame.appendChild(el("span", w > 7 * label.length ? label : d.name));
		map.appendChild(frame);
	});
	return dirs;
}

/* A table whose header sorts it (numbers numerically), click again to reverse. */
function table(t, columns, rows) {
	var head = el("tr"), body = el("tbody");
	columns.forEach(function (c, i) {
		var th = el("th", c.title);
		th.addEventListener("click", function () { sortBy(i); });
		head.appendChild(th);
	});
	var thead = el("thead");
	thead.appendChild(head);
	t.appendChild(thead);
	t.appendChild(body);
	var order = { column: -1, up: false };
	function fill() {
		body.textContent = "";
		rows.forEach(function (r) {
			var tr = el("tr");
			columns.forEach(function (c) {
				var v = r[c.key];
				tr.appendChild(el("td", c.num ? (c.sign ? signed(v) : bytes(v)) : v,
					c.num ? "n" : undefined));
			});
			body.appendChild(tr);
		});
	}
	function sortBy(i) {
		var c = columns[i];
		order.up = order.column === i ? !order.up : !c.num;
		order.column = i;
		rows.sort(function (a, b) {
			var x = a[c.key], y = b[c.key];
			var d = c.num ? (c.sign ? Math.abs(x) - Math.abs(y) : x - y) :
				(x < y ? -1 : x > y ? 1 : 0);
			return order.up ? d : -d;
		});
		fill();
	}
	fill();
}

function drawTables(R) {
	table(document.getElementById("changes"), [
		{ title: "symbol", key: "name" },
		{ title: "status", key: "status" },
		{ title: "old", key: "old", num: true },
		{ title: "new", key: "new", num: true },
		{ title: "change", key: "diff", num: true, sign: true }
	], R.symbols);
	table(document.getElementById("dirs"), [
		{ title: "directory", key: "directory" },
		{ title: "old", key: "old", num: true },
		{ title: "new", key: "new", num: true },
		{ title: "change", key: "diff", num: true, sign: true }
	], R.directories);
	var k = R.reasons, about = document.getElementById("reasons-about");
	if (!k) {
		about.textContent = "No lto-ld report given (--report=FILE).";
		return;
	}
	about.textContent = "The report " + k.report + " of " + k.output + " (" +
		k.mode + "): " + k.definitions + " IR definitions; " +
		k.kept_names_in_new + " of the " + k.kept_names +
		" names it keeps are in NEW.";
	var rows = [];
	[["kept", k.kept], ["unexplained", k.unexplained]].forEach(function (g) {
		Object.keys(g[1]).forEach(function (name) {
			var b = g[1][name];
			rows.push({ reason: g[0] + ": " + name, bytes: b.bytes,
				share: (100 * b.bytes / (k.total.bytes || 1)).toFixed(2) + "%",
				symbols: b.symbols, names: b.names });
		});
	});
	table(document.getElementById("reasons"), [
		{ title: "reason", key: "reason" },
		{ title: "bytes", key: "bytes", num: true },
		{ title: "share", key: "share" },
		{ title: "symbols", key: "symbols", num: true },
		{ title: "names", key: "names", num: true }
	], rows);
}

function drawSummary(R) {
	var t = R.totals;
	document.title = "lto-sizediff: " + R.old.file + " -> " + R["new"].file;
	document.getElementById("title").textContent = document.title;
	document.getElementById("summary").textContent = "OLD " + R.old.file +
		": " + bytes(t.old) + " bytes; NEW " + R["new"].file + ": " +
		bytes(t["new"]) + " bytes (" + signed(t.diff) + (t.old ?
		", " + (100 * t.diff / t.old).toFixed(2) + "%" : "") + ").";
}

/* The legend: each change's colour, with its boxes and bytes in DIRS. */
function drawLegend(dirs) {
	var legend = document.getElementById("legend"), tally = {};
	CHANGES.forEach(function (c) { tally[c.cls] = { boxes: 0, diff: 0, size: 0 }; });
	dirs.forEach(function (d) {
		d.cells.forEach(function (c) {
			var t = tally[change(c.oldSize, c.newSize)];
			t.boxes++;
			t.diff += c.newSize - c.oldSize;
			t.size += c.newSize;
		});
	});
	legend.textContent = "Each box is as large as the larger of its bytes " +
		"in OLD and in NEW; its colour is what became of it:";
	legend.appendChild(el("br"));
	CHANGES.forEach(function (c) {
		var t = tally[c.cls], item = el("span", undefined, "key");
		item.dataset.change = c.cls;
		item.appendChild(el("span", undefined, "swatch " + c.cls));
		item.appendChild(document.createTextNode(c.words + ": " + t.boxes +
			(t.boxes === 1 ? " box, " : " boxes, ") +
			(c.cls === "same" ? bytes(t.size) : signed(t.diff)) + " bytes"));
		legend.appendChild(item);
	});
	legend.appendChild(el("br"));
	legend.appendChild(document.createTextNode("A dashed frame is a " +
		"directory with nothing left in NEW. Hover over a box for its numbers."));
}

var report = JSON.parse(document.getElementById("report").textContent);
var cells = JSON.parse(document.getElementById("cells").textContent);
var map = document.getElementById("treemap");
drawSummary(report);
drawLegend(drawTreemap(cells, map));
drawTables(report);
