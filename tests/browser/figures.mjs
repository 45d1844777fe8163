// figures.mjs -- what a reader sees of the figures, measured in Debian's Chromium
// (tests/figures.sh runs it; playwright-core as for tests/browser/check.mjs).
//
//   node figures.mjs sizes BUILD_DIR
//     Every page in BUILD_DIR/html but book.html at 1280 and 390 px wide (loaded
//     once, then narrowed), in the light and the dark theme: every text of every
//     figure renders at 11 CSS px or more (tests/browser/figsizes.mjs, which
//     check.mjs also runs on the book's own pages as it checks them; here for the
//     planted pages of tests/figures.sh). One line per figure, width and theme
//     that fails: "SIZE 390 dark PAGE: ...".
//
//   node figures.mjs layout FILE.svg...
//     Each SVG (gnuplot's, or a TikZ diagram's by dvisvgm) drawn at its own
//     size: no two texts overlap (the boxes of their lines, from Chromium's
//     character extents, in the SVG's units), no text or key sample runs
//     off the canvas (or is cut at its edge), and no key (a titled plot's text
//     and sample) covers a plotted line, point or bar of any plot.
//     One line per fault: "NAME: ...".
//
// Exit 0 when nothing is found, 1 when something is, 2 when it cannot run.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { figureSizes } from './figsizes.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// A text's glyph box, less this many units at its top and bottom and 1 at each
// end, must not meet another's (a glyph box holds the font's whole ascent and
// descent: two lines set one under the other touch without any ink in common).
const TEXT_SLACK = 2;
// A character's cell at most this far above and below its baseline, in em.
const ASCENT = 1.0, DESCENT = 0.3;

const [mode, ...args] = process.argv.slice(2);
if (!['sizes', 'layout'].includes(mode) || args.length === 0) {
  console.error('usage: node figures.mjs sizes BUILD_DIR | layout FILE.svg...');
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) {
  console.error(`figures.mjs: ${CHROMIUM} not found ` +
    "(make deps installs Debian's chromium)");
  process.exit(2);
}

// ---------------------------------------------------------------------------
async function sizes(build) {
  const html = path.join(path.resolve(build), 'html');
  const pages = fs.readdirSync(html)
    .filter((f) => /\.html$/.test(f) && f !== 'book.html').sort();
  const browser = await chromium.launch({ executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--host-resolver-rules=MAP * ~NOTFOUND'] });
  let bad = 0, figures = 0;
  try {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.route('**/*', (route) => (
      /^(file|data|blob):/.test(route.request().url())
      ? route.continue() : route.abort('blockedbyclient')));
    const page = await ctx.newPage();
    for (const p of pages) {
      // Each page is loaded once, narrowed from 1280 to 390 px (the book's styles
      // ask for nothing but the width) and shown in both themes at each width.
      await page.goto('file://' + path.join(html, p));
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        const r = await figureSizes(page, p, width);
        figures += r.figures;
        for (const line of [...r.faults.light, ...r.faults.dark]) { console.log(line); bad += 1; }
      }
    }
    await ctx.close();
  } finally {
    await browser.close();
  }
  console.log(`# ${figures} figures measured on ${pages.length} pages, ` +
    '2 widths, 2 themes');
  return bad;
}

// ---------------------------------------------------------------------------
// In the page: texts that overlap, and keys over data, in one drawn SVG.
function measureLayout() {
  const svg = document.querySelector('svg');
  const probs = [];
  // a box of an element in the SVG's units (its transform applied)
  const boxOf = (el) => {
    const b = el.getBBox();
    const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
    const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
      [b.x + b.width, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    return { x0: Math.min(...xs), y0: Math.min(...ys),
      x1: Math.max(...xs), y1: Math.max(...ys), pts };
  };
  // the glyph boxes of a text, less the slack, as four corners each in the SVG's
  // units: one box per line (a <text> of dvisvgm holds a whole TikZ node, its
  // lines in <tspan>s with their own y; gnuplot's sub- and superscripts sit on
  // lines of their own too), each the union of its characters' cells. A rotated
  // text keeps its slant: two labels at -35 degrees side by side do not overlap
  // though their upright bounding boxes do.
  // A character's cell reaches at most ASCENT em above its baseline and DESCENT
  // em below: the cells of TeX's symbol fonts (cmsy, cmex) hang a whole em
  // below the baseline, for symbols no text font draws that low. Characters
  // of the Private Use Area are pieces of TeX's big symbols (cmex's sum sign,
  // delimiters), whose cells are not where their ink is: they are skipped.
  const quadsOf = (el) => {
    const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
    const em = Math.max(...[el, ...el.querySelectorAll('tspan')]
      .map((x) => parseFloat(getComputedStyle(x).fontSize)));
    const lines = new Map();
    const chars = [...el.textContent];
    for (let i = 0; i < el.getNumberOfChars(); i++) {
      const e = el.getExtentOfChar(i);
      if (!e.width && !e.height) continue;
      if (chars.length === el.getNumberOfChars() && /[\uE000-\uF8FF]/.test(chars[i])) continue;
      const base = el.getStartPositionOfChar(i).y;
      const y = Math.round(base * 100) / 100;
      const c = { x0: e.x, x1: e.x + e.width, y0: Math.max(e.y, base - ASCENT * em),
        y1: Math.min(e.y + e.height, base + DESCENT * em) };
      const b = lines.get(y);
      if (!b) { lines.set(y, c); continue; }
      b.x0 = Math.min(b.x0, c.x0); b.y0 = Math.min(b.y0, c.y0);
      b.x1 = Math.max(b.x1, c.x1); b.y1 = Math.max(b.y1, c.y1);
    }
    return [...lines.values()].map((b) => {
      const w = b.x1 - b.x0, h = b.y1 - b.y0;
      const sx = Math.min(1, w / 4), sy = Math.min(SLACK, h / 4);
      const x0 = b.x0 + sx, x1 = b.x1 - sx, y0 = b.y0 + sy, y1 = b.y1 - sy;
      return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
        .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    });
  };
  // separating axes: two convex quads overlap unless an edge's normal parts them
  const apart = (p, q) => [p, q].some((poly) => poly.some((a, i) => {
    const b = poly[(i + 1) % poly.length], nx = a[1] - b[1], ny = b[0] - a[0];
    const pr = (pts) => pts.map(([x, y]) => x * nx + y * ny);
    const u = pr(p), v = pr(q);
    return Math.max(...u) <= Math.min(...v) || Math.max(...v) <= Math.min(...u);
  }));
  // a text's words, spaced where its pieces (text nodes, <tspan>s) part
  const label = (t) => [...t.childNodes].map((c) => c.textContent.trim()).filter(Boolean)
    .join(' ').slice(0, 30);
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => ({ t, qs: quadsOf(t) }));
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].qs.some((p) => texts[j].qs.some((q) => !apart(p, q)))) {
        probs.push(`texts '${label(texts[i].t)}' and '${label(texts[j].t)}' overlap`);
      }
    }
  }
  // Nothing drawn off the canvas: a text's glyph box (less the slack) and a key's
  // sample must lie inside the viewBox (gnuplot clips a key sample at the edge of
  // the canvas and writes a text whose place is off it; the viewer cuts both).
  // (dvisvgm's viewBox starts where the drawing does, e.g. at -72, -72)
  const vb = svg.viewBox.baseVal;
  const X = vb && vb.width ? vb.x : 0, Y = vb && vb.height ? vb.y : 0;
  const W = vb && vb.width ? vb.width : svg.getBBox().width;
  const H = vb && vb.height ? vb.height : svg.getBBox().height;
  const offCanvas = (pts, edge = 0) => pts.some(([x, y]) =>
    x < X + edge || y < Y + edge || x > X + W - edge || y > Y + H - edge);
  for (const { t, qs } of texts) {
    const q = qs.flat();
    if (offCanvas(q)) {
      const xs = q.map((p) => p[0]), ys = q.map((p) => p[1]);
      const by = Math.max(X - Math.min(...xs), Y - Math.min(...ys),
        Math.max(...xs) - X - W, Math.max(...ys) - Y - H);
      probs.push(`the text '${label(t)}' runs off the canvas (by ${by.toFixed(1)})`);
    }
  }
  // Keys: a titled plot (<g id="gnuplot_plot_..."><title>) draws its key text,
  // then its key sample: the first subpath of its first path (a line), or its
  // first polygon (a bar), with a point at the sample's middle.
  const segsOf = (d) => {
    const subs = [];
    let cur = null;
    for (const m of d.matchAll(/([ML])\s*([-\d.]+)[ ,]([-\d.]+)/g)) {
      const p = [+m[2], +m[3]];
      if (m[1] === 'M') { cur = [p]; subs.push(cur); } else if (cur) cur.push(p);
    }
    return subs;
  };
  const keyBoxes = [], samples = new Set(), data = { lines: [], points: [], polys: [] };
  const boundsOf = (pts) => ({ x0: Math.min(...pts.map((p) => p[0])),
    x1: Math.max(...pts.map((p) => p[0])), y0: Math.min(...pts.map((p) => p[1])),
    y1: Math.max(...pts.map((p) => p[1])) });
  const plots = [...svg.querySelectorAll('g[id^="gnuplot_plot_"]')];
  for (const g of plots) {
    const titled = g.querySelector(':scope > title') && g.querySelector('text');
    let keyBox = null;
    const title = g.querySelector(':scope > title');
    const named = title && !/^gnuplot_plot_\w+$/.test(title.textContent.trim());
    if (named && !g.querySelector('text')) {
      // gnuplot names the plot but draws no key entry: its key fell off the canvas
      probs.push(`the key of '${title.textContent.trim().slice(0, 30)}' is not drawn`);
    }
    if (titled) {
      const t = g.querySelector('text');
      keyBox = boxOf(t);
    }
    let sampleTaken = !titled;
    let sampleBox = null;
    for (const el of g.querySelectorAll('path, polygon, use')) {
      if (el.tagName === 'path') {
        const subs = segsOf(el.getAttribute('d') || '');
        subs.forEach((s, k) => {
          if (!sampleTaken && k === 0) {
            sampleTaken = true;
            sampleBox = boundsOf(s);
          } else data.lines.push(s);
        });
      } else if (el.tagName === 'polygon') {
        const pts = (el.getAttribute('points') || '').trim().split(/\s+/)
          .map((p) => p.split(',').map(Number));
        const b = boundsOf(pts);
        if (!sampleTaken) {
          sampleTaken = true;
          sampleBox = b;
        } else data.polys.push(b);
      } else {
        const m = /translate\(([-\d.]+),([-\d.]+)\)/
          .exec(el.getAttribute('transform') || '');
        if (m) data.points.push({ x: +m[1], y: +m[2], r: 3 });
      }
    }
    if (sampleBox && titled) {
      const { x0, y0, x1, y1 } = sampleBox;
      // a sample that reaches the edge was cut there
      if (offCanvas([[x0, y0], [x1, y1]], 0.5)) {
        const name = title.textContent.trim().slice(0, 30);
        probs.push(`the key sample of '${name}' runs off the canvas`);
      }
    }
    if (keyBox && sampleBox) {
      keyBox = { x0: Math.min(keyBox.x0, sampleBox.x0),
        y0: Math.min(keyBox.y0, sampleBox.y0),
        x1: Math.max(keyBox.x1, sampleBox.x1), y1: Math.max(keyBox.y1, sampleBox.y1) };
      samples.add(sampleBox);
      keyBoxes.push({ b: keyBox, title: title.textContent.trim().slice(0, 30) });
    }
  }
  // a point drawn in a key sample (its middle) belongs to the key, not the data
  const inBox = (x, y, b, pad = 0) =>
    x >= b.x0 - pad && x <= b.x1 + pad && y >= b.y0 - pad && y <= b.y1 + pad;
  data.points = data.points
    .filter((p) => ![...samples].some((s) => inBox(p.x, p.y, s, 0.6)));
  // does segment p-q cross box b?
  const crosses = (p, q, b) => {
    let t0 = 0, t1 = 1;
    const dx = q[0] - p[0], dy = q[1] - p[1];
    const sides = [[-dx, p[0] - b.x0], [dx, b.x1 - p[0]], [-dy, p[1] - b.y0],
      [dy, b.y1 - p[1]]];
    for (const [pp, qq] of sides) {
      if (pp === 0) { if (qq < 0) return false; continue; }
      const r = qq / pp;
      if (pp < 0) {
        if (r > t1) return false;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return false;
        if (r < t1) t1 = r;
      }
    }
    return true;
  };
  for (const k of keyBoxes) {
    const b = { x0: k.b.x0 + 1, y0: k.b.y0 + 1, x1: k.b.x1 - 1, y1: k.b.y1 - 1 };
    const line = data.lines
      .some((s) => s.some((p, i) => i > 0 && crosses(s[i - 1], p, b)));
    const point = data.points.some((p) => inBox(p.x, p.y, b, p.r));
    const poly = data.polys
      .some((q) => q.x0 < b.x1 && q.x1 > b.x0 && q.y0 < b.y1 && q.y1 > b.y0);
    if (line || point || poly) {
      const what = line ? 'line' : point ? 'point' : 'bar';
      probs.push(`the key '${k.title}' covers a plotted ${what}`);
    }
  }
  return probs;
}

async function layout(files) {
  const browser = await chromium.launch({ executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--host-resolver-rules=MAP * ~NOTFOUND'] });
  let bad = 0;
  try {
    const page = await (await browser.newContext()).newPage();
    for (const f of files) {
      const name = path.basename(f, '.svg');
      const svg = fs.readFileSync(f, 'utf8').replace(/^<\?xml[^>]*>/, '');
      await page.setContent(
        `<!doctype html><html><body style="margin:0">${svg}</body></html>`);
      const fn = measureLayout.toString().replace('SLACK', String(TEXT_SLACK))
        .replace('ASCENT * em', `${ASCENT} * em`).replace('DESCENT * em', `${DESCENT} * em`);
      const probs = await page.evaluate(`(${fn})()`);
      for (const p of [...new Set(probs)]) { console.log(`${name}: ${p}`); bad += 1; }
    }
  } finally {
    await browser.close();
  }
  return bad;
}

try {
  const bad = mode === 'sizes' ? await sizes(args[0]) : await layout(args);
  process.exit(bad ? 1 : 0);
} catch (e) {
  console.error(`figures.mjs: ${e.message}`);
  process.exit(2);
}
