// check.mjs BUILD_DIR -- open every page of the HTML book in Debian's Chromium
// and check it the way a reader would see it. Prints TAP lines ("ok N - ..." /
// "not ok N - ..." followed by "# why" lines); tests/browser.sh runs it.
//
// Run from the repository root: the chapter sources (chapters/NN-*.md) say which
// pages must exist, in which order, and how much math each one has.
//
// Per page, at desktop width (1280 px):
//   - no console error and no uncaught page error
//   - no request leaves the machine: every request is file: or data:
//     (anything else is aborted and reported), and no local file is missing
//   - every <img> loaded (complete, naturalWidth > 0) and is shown
//   - math: at least as many <math> elements as the source has math, each laid
//     out (non-zero box), fractions stacked (numerator above denominator)
//   - every internal link resolves: "#id" on the page, "other.html#id" in that file
//   - ids are unique
//   - the prev/next links point at the neighbouring chapters, and home at index.html
//   - a screenshot of its first screen in BUILD/screenshots/NAME.png (of the
//     whole page with BROWSER_FULL_SHOTS=1: a fifth of the group's CPU time)
//   - axe-core (npm) finds no serious or critical accessibility violation, on
//     every page but book.html (the chapters again, on one page: as long as all
//     the others together; its ids are checked here and by the Nu checker); on
//     a planted page it reports the serious and the critical fault by name
// At phone width (390 px; the same page, narrowed): the page does not scroll
// sideways (code blocks may scroll inside their own box); screenshot
// BUILD/screenshots/NAME-phone.png (its first screen, as above).
// At both widths, in the light and the dark theme, on every page but book.html:
// every text of every figure renders at 11 CSS px or more
// (tests/browser/figsizes.mjs; one line per width and theme for the whole book).
// Then, once, the reader's tools from file:// (book/book.js): search (and its
// snippets show no TeX: with --search-snippets, only that check), theme
// switch (system setting, remembered, figures darkened), copy buttons, the
// arrow keys, a reference into another chapter; and dark screenshots
// (NAME-dark.png, NAME-phone-dark.png) of the first chapter (its first screen;
// the whole page with BROWSER_FULL_SHOTS=1).

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { figureSizes, MIN_PX } from './figsizes.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const BUILD = path.resolve(process.argv[2] || 'build');
const HTML = path.join(BUILD, 'html');
const SHOTS = path.join(BUILD, 'screenshots');
const FULL_SHOTS = process.env.BROWSER_FULL_SHOTS === '1';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const shotsShown = SHOTS.startsWith(process.cwd() + path.sep)
  ? path.relative(process.cwd(), SHOTS) : SHOTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Pages checked at once: one per core (BROWSER_JOBS overrides).
const PARALLEL = Math.max(1, Number(process.env.BROWSER_JOBS) || os.cpus().length);
// Figure text sizes (tests/browser/figsizes.mjs), measured on each page as it is
// checked, at both widths and in both themes: the faults of each width and theme.
const SIZE_WIDTHS = [DESKTOP.width, PHONE.width], SIZE_SCHEMES = ['light', 'dark'];
const sizeFaults = {};
for (const w of SIZE_WIDTHS) for (const sc of SIZE_SCHEMES) sizeFaults[`${w} ${sc}`] = [];
let figuresMeasured = 0, pagesMeasured = 0;
async function measureFigures(page, name, width) {
  if (name === 'book.html') return;   // the chapters' figures again, on one page
  const r = await figureSizes(page, name, width);
  figuresMeasured += r.figures;
  if (width === DESKTOP.width) pagesMeasured += 1;
  for (const sc of SIZE_SCHEMES) sizeFaults[`${width} ${sc}`].push(...r.faults[sc]);
}

// ---------------------------------------------------------------------------
// TAP

let n = Number(process.env.TAP_START || 0);
let failed = 0;
function result(ok, what, why = []) {
  n += 1;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${what}`);
  if (!ok) {
    failed += 1;
    const lines = (Array.isArray(why) ? why : [why]).flatMap((w) => String(w).split('\n'));
    for (const line of lines.slice(0, 12)) console.log(`# ${line}`);
    if (lines.length > 12) console.log(`# ... and ${lines.length - 12} more`);
  }
}
const check = (what, problems) => result(problems.length === 0, what, problems);
const short = (url) => (url.length > 90 ? url.slice(0, 87) + '...' : url);

// ---------------------------------------------------------------------------
// What must exist: index.html, and one page per chapter in chapters/, in order.

const chapters = fs.existsSync('chapters')
  ? fs.readdirSync('chapters').filter((f) => /^\d\d-.*\.md$/.test(f)).sort()
  : [];
const chapterPages = chapters.map((f) => f.replace(/\.md$/, '.html'));
const sourceOf = { 'index.html': 'book/index.md' };
for (const f of chapters) sourceOf[f.replace(/\.md$/, '.html')] = path.join('chapters', f);

const onDisk = fs.existsSync(HTML) ? fs.readdirSync(HTML).filter((f) => f.endsWith('.html')) : [];
const pages = [...new Set(['index.html', ...chapterPages, ...onDisk])].sort();

// How many Math elements does the source have? Ask pandoc itself, so that "$"
// in code or in prose is judged exactly as the build judges it.
function mathInSource(page) {
  const src = sourceOf[page];
  if (!src || !fs.existsSync(src)) return null;
  try {
    const json = execFileSync('pandoc', ['--from', 'markdown', '--to', 'json', src],
      { encoding: 'utf8', maxBuffer: 64 << 20 });
    return (json.match(/"t":"Math"/g) || []).length;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// In the page

// Everything the checks need, measured in one evaluate() call.
function measurePage() {
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  const imgs = [...document.images].map((img) => {
    const r = img.getBoundingClientRect();
    return {
      src: img.getAttribute('src') || '', complete: img.complete,
      naturalWidth: img.naturalWidth, w: r.width, h: r.height,
    };
  });
  const maths = [...document.querySelectorAll('math')].map((m) => {
    const r = m.getBoundingClientRect();
    return { w: r.width, h: r.height, text: (m.textContent || '').trim().slice(0, 60),
      display: m.getAttribute('display') || 'inline' };
  });
  // A fraction laid out by a MathML engine puts its numerator above its
  // denominator; without MathML layout the two sit side by side as text.
  const fracs = [...document.querySelectorAll('mfrac')].map((f) => {
    const [a, b] = f.children;
    if (!a || !b) return { ok: false, text: f.textContent.trim() };
    const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    return { ok: ra.bottom <= rb.top + 1 && ra.height > 0 && rb.height > 0,
      text: f.textContent.trim().slice(0, 40) };
  });
  const links = [...document.querySelectorAll('a[href]')].map((a) => ({
    href: a.getAttribute('href'), rel: a.getAttribute('rel') || '',
    text: (a.textContent || '').trim().slice(0, 40),
  }));
  return { ids, imgs, maths, fracs, links, title: document.title };
}

// axe-core's serious and critical violations on the page, a line each.
async function seriousViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    /* global axe */
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')
      .map((x) => `${x.impact}: ${x.id} (${x.nodes.length}x): ${x.help}; e.g. ` +
        x.nodes.slice(0, 2).map((nd) => nd.target.join(' ')).join(', '));
  });
}
// A planted page with one serious and one critical fault (grey text on white,
// an image with no alt), and one moderate one (no <main>): the axe check reports
// the first two, by name, and nothing of the third.
const PLANTED_AXE = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Planted</title></head>' +
  '<body><h1>Planted</h1><p style="color:#bbb;background:#fff">Grey on white.</p>' +
  '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"></body></html>';
async function plantedAxe(context) {
  const page = await context.newPage();
  try {
    await page.setContent(PLANTED_AXE);
    const v = await seriousViolations(page);
    const ids = v.map((l) => l.split(' ')[1]);
    const probs = [];
    for (const want of ['color-contrast', 'image-alt']) {
      if (!ids.includes(want)) probs.push(`${want} not reported; reported: ${v.join(' | ') || 'nothing'}`);
    }
    if (ids.includes('landmark-one-main') || v.length !== 2) probs.push(`reported: ${v.join(' | ')}`);
    check('axe reports a planted page\'s serious and critical faults (color-contrast, image-alt), ' +
      'and not its moderate one', probs);
  } catch (e) {
    check('axe reports a planted page\'s serious and critical faults', [String(e.message || e)]);
  } finally { await page.close(); }
}

// Elements that stick out to the right of the viewport and are not inside a
// box that scrolls or clips them: the cause of sideways scrolling.
function measureOverflow() {
  const de = document.documentElement;
  const width = de.clientWidth;
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return true;
    }
    return false;
  };
  const culprits = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && r.width > 0 && !clipped(el)) {
      // report the outermost offender only
      if (culprits.some((c) => c.el.contains(el))) continue;
      const cls = el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '';
      culprits.push({ el, desc: `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}> ` +
        `right edge ${Math.round(r.right)} px: "${(el.textContent || '').trim().slice(0, 50)}"` });
    }
  }
  return { scrollWidth: de.scrollWidth, clientWidth: width, innerWidth: window.innerWidth,
    viewportMeta: !!document.querySelector('meta[name="viewport"][content*="width=device-width"]'),
    culprits: culprits.slice(0, 8).map((c) => c.desc) };
}

// ---------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    result(false, 'Chromium is installed', `${CHROMIUM} not found (make deps installs Debian's chromium)`);
    return;
  }
  fs.mkdirSync(SHOTS, { recursive: true });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      // belt and braces: even a request that slipped through could not resolve a name
      '--host-resolver-rules=MAP * ~NOTFOUND'],
  });
  try {
    // Not isMobile, also at a phone's width: a mobile viewport lets Chromium zoom
    // out to fit wide content, which would hide exactly the sideways scrolling
    // checkPage looks for.
    const desktop = await browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });

    // No request may leave the machine: allow file: and data:, abort the rest
    // (each page records its own, in checkPage).
    const offMachine = new Map();     // page -> [url]
    await desktop.route('**/*', (route) => {
      const url = route.request().url();
      if (/^(file|data|blob):/.test(url)) return route.continue();
      return route.abort('blockedbyclient');
    });

    const seen = {};        // page -> { ids:Set }
    const pending = [];     // cross-page links, checked once every page is read

    // One page's checks; their results are kept and printed in page order, so
    // pages are checked side by side (PARALLEL at a time) with a stable output.
    async function checkPage(name) {
      const out = [];
      const res = (ok, what, why = []) => out.push([ok, what, why]);
      const chk = (what, problems) => res(problems.length === 0, what, problems);
      const file = path.join(HTML, name);
      if (!fs.existsSync(file)) {
        res(false, `${name} exists`, `${file} was not built`);
        return out;
      }
      const page = await desktop.newPage();
      // this page's own requests that would leave the machine (aborted)
      await page.route('**/*', (route) => {
        const u = route.request().url();
        if (/^(file|data|blob):/.test(u)) return route.continue();
        (offMachine.get(name) || offMachine.set(name, []).get(name)).push(u);
        return route.abort('blockedbyclient');
      });
      const consoleErrors = [], requests = [], failedRequests = [];
      page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      page.on('requestfailed', (r) => failedRequests.push(`${short(r.url())}: ${r.failure()?.errorText}`));
      page.on('websocket', (ws) => requests.push(ws.url()));

      const url = pathToFileURL(file).href;
      let loaded = true;
      try {
        await page.goto(url, { waitUntil: 'load', timeout: 30000 });
        await page.evaluate(() => document.fonts.ready);
      } catch (e) {
        loaded = false;
        res(false, `${name} loads`, String(e.message || e));
      }
      if (!loaded) { await page.close(); return out; }

      const m = await page.evaluate(measurePage);
      seen[name] = { ids: new Set(m.ids) };

      chk(`${name}: no console or page errors`, consoleErrors);

      const away = [...new Set([...(offMachine.get(name) || []),
        ...requests.filter((u) => !/^(file|data|blob):/.test(u))])];
      const missing = failedRequests.filter((f) => f.startsWith('file:'));
      chk(`${name}: every request stays on the machine (file: or data:)`,
        [...away.map((u) => `request to ${short(u)}`), ...missing.map((f) => `missing: ${f}`)]);

      chk(`${name}: every image loaded (${m.imgs.length})`, m.imgs
        .filter((i) => !i.complete || i.naturalWidth === 0 || i.w === 0 || i.h === 0)
        .map((i) => `${short(i.src)}: complete=${i.complete} naturalWidth=${i.naturalWidth} ` +
          `shown ${Math.round(i.w)}x${Math.round(i.h)}`));

      const expectMath = mathInSource(name);
      if (expectMath !== null) {
        const probs = [];
        if (m.maths.length < expectMath) {
          probs.push(`${sourceOf[name]} has ${expectMath} formula(s), the page ${m.maths.length} <math> ` +
            '(math lost, or the page is older than its source?)');
        }
        for (const x of m.maths) {
          if (!(x.w > 0 && x.h > 0)) probs.push(`<math display=${x.display}> "${x.text}" has a ${x.w}x${x.h} box`);
        }
        for (const f of m.fracs) if (!f.ok) probs.push(`fraction "${f.text}" is not stacked: MathML not laid out`);
        chk(`${name}: math rendered as MathML (${m.maths.length} formulas, ${m.fracs.length} fractions)`, probs);
      }

      // Internal links.
      const here = new Set(m.ids);
      const linkProbs = [];
      for (const l of m.links) {
        const href = l.href;
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
          if (/^(https?|mailto):/i.test(href)) continue;   // external: a link, never loaded
          if (!href.startsWith('file:')) linkProbs.push(`"${l.text}" -> ${href}: unexpected scheme`);
          else linkProbs.push(`"${l.text}" -> ${href}: absolute file: link`);
          continue;
        }
        if (href.startsWith('#')) {
          const id = decodeURIComponent(href.slice(1));
          if (id !== '' && !here.has(id)) linkProbs.push(`"${l.text}" -> ${href}: no such id on this page`);
          continue;
        }
        const target = new URL(href, url);
        const tfile = fileURLToPath(target);
        if (!fs.existsSync(tfile)) { linkProbs.push(`"${l.text}" -> ${href}: no such file`); continue; }
        const tname = path.relative(HTML, tfile);
        if (target.hash && target.hash !== '#') {
          pending.push({ from: name, text: l.text, href, tname,
            id: decodeURIComponent(target.hash.slice(1)), tfile });
        }
      }
      chk(`${name}: every internal link resolves (${m.links.length} links)`, linkProbs);

      const counts = {};
      for (const id of m.ids) counts[id] = (counts[id] || 0) + 1;
      chk(`${name}: ids are unique`, Object.entries(counts).filter(([, c]) => c > 1)
        .map(([id, c]) => `id "${id}" appears ${c} times`));

      // Navigation between chapters.
      const i = chapterPages.indexOf(name);
      if (i >= 0) {
        const probs = [];
        const want = { prev: chapterPages[i - 1], next: chapterPages[i + 1] };
        for (const rel of ['prev', 'next']) {
          const hrefs = m.links.filter((l) => l.rel.split(/\s+/).includes(rel)).map((l) => l.href);
          if (want[rel] && hrefs.length === 0) probs.push(`no ${rel} link (expected ${want[rel]})`);
          if (!want[rel] && hrefs.length > 0) probs.push(`${rel} link to ${hrefs[0]}, but this is the ${rel === 'prev' ? 'first' : 'last'} chapter`);
          for (const h of hrefs) if (want[rel] && h !== want[rel]) probs.push(`${rel} link to ${h}, expected ${want[rel]}`);
        }
        if (!m.links.some((l) => l.href === 'index.html')) probs.push('no link back to index.html');
        chk(`${name}: prev/next links (${want.prev || '-'} | ${want.next || '-'})`, [...new Set(probs)]);
      } else if (name === 'index.html') {
        const hrefs = new Set(m.links.map((l) => l.href.split('#')[0]));
        chk('index.html: links to every chapter',
          chapterPages.filter((p) => !hrefs.has(p)).map((p) => `no link to ${p}`));
      }

      // Accessibility: axe-core, serious and critical violations only.
      if (name !== 'book.html') try {
        chk(`${name}: axe finds no serious accessibility violation`, await seriousViolations(page));
      } catch (e) { res(false, `${name}: axe ran`, String(e.message || e)); }

      // PRINT_DIR set: each chapter printed there as NAME.pdf (print styles, US
      // Letter, 0.4 in margins: Chromium's own print-to-pdf defaults), which
      // browser.sh reads for labels stranded at the foot of a page.
      if (process.env.PRINT_DIR && chapterPages.includes(name)) {
        await page.pdf({ path: path.join(process.env.PRINT_DIR, name.replace(/\.html$/, '.pdf')),
          format: 'Letter', margin: { top: '0.4in', bottom: '0.4in', left: '0.4in', right: '0.4in' },
          printBackground: false }).catch(() => {});
      }

      // A page that shows nothing (blank, or styles gone) makes a tiny PNG.
      let shot = [];
      const png = path.join(SHOTS, name.replace(/\.html$/, '.png'));
      try {
        // The whole book on one page is too tall for one picture: its first screen.
        await page.screenshot({ path: png, fullPage: FULL_SHOTS && name !== 'book.html' });
        const size = fs.statSync(png).size;
        if (size < 20000) shot = [`${png} is only ${size} bytes: does the page show anything?`];
      } catch (e) { shot = [String(e.message || e)]; }
      chk(`${name}: screenshot saved in ${shotsShown}`, shot);
      await measureFigures(page, name, DESKTOP.width);

      // The same page at a phone's width: this page, narrowed. The book's styles
      // ask for nothing but the width (no pointer or hover queries, and book.js
      // reads no size), so this is the layout a phone gets, without loading and
      // running the page a second time (a sixth of the group's CPU time).
      await page.setViewportSize(PHONE);
      const o = await page.evaluate(measureOverflow);
      const oprobs = [];
      if (!o.viewportMeta) oprobs.push('no <meta name="viewport" content="width=device-width">');
      if (o.scrollWidth > o.clientWidth + 1) {
        oprobs.push(`the page is ${o.scrollWidth} px wide in a ${o.clientWidth} px viewport; sticking out:`,
          ...o.culprits);
      }
      chk(`${name}: no sideways scrolling at ${PHONE.width} px`, oprobs);
      await page.screenshot({ path: path.join(SHOTS, name.replace(/\.html$/, '-phone.png')),
        fullPage: FULL_SHOTS && name !== 'book.html' })
        .catch(() => {});
      await measureFigures(page, name, PHONE.width);
      await page.close();
      return out;
    }
    const results = new Array(pages.length);
    let next = 0;
    async function worker() {
      while (next < pages.length) {
        const i = next++;
        try { results[i] = await checkPage(pages[i]); }
        catch (e) { results[i] = [[false, `${pages[i]}: checked`, String(e.stack || e)]]; }
      }
    }
    await Promise.all(Array.from({ length: Math.min(PARALLEL, pages.length) }, worker));
    for (const out of results) for (const [ok, what, why] of out) result(ok, what, why);
    for (const w of SIZE_WIDTHS) {
      for (const sc of SIZE_SCHEMES) {
        check(`at ${w} px wide, ${sc} theme, every figure's text is ${MIN_PX} CSS px or more`,
          sizeFaults[`${w} ${sc}`]);
      }
    }
    console.log(`# ${figuresMeasured} figures measured on ${pagesMeasured} pages, ` +
      `${SIZE_WIDTHS.length} widths, ${SIZE_SCHEMES.length} themes`);

    await plantedAxe(desktop);
    await readerTools(browser, desktop);

    // Links into other pages: the target page has the id.
    const byFrom = {};
    for (const l of pending) (byFrom[l.from] ||= []).push(l);
    for (const from of Object.keys(byFrom).sort()) {
      const probs = [];
      for (const l of byFrom[from]) {
        let ids = seen[l.tname]?.ids;
        if (!ids) {   // not one of the book's pages: read its ids from the file
          const text = fs.readFileSync(l.tfile, 'utf8');
          ids = new Set([...text.matchAll(/\sid="([^"]*)"/g)].map((x) => x[1]));
        }
        if (!ids.has(l.id)) probs.push(`"${l.text}" -> ${l.href}: ${l.tname} has no id "${l.id}"`);
      }
      check(`${from}: every link into another page finds its anchor (${byFrom[from].length})`, probs);
    }
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------
// The reader's tools, exercised the way a reader uses them, from file://.

// Search results show maths as plain text (book/filter/plainmath.lua), never
// as TeX: no title or snippet of the results of a few queries whose sections
// are full of formulas holds a TeX command (\frac, \sqrt, \mathrm), a TeX
// space (\,) or a braced sub- or superscript (_{ ^{). Returns the problems.
const SNIPPET_QUERIES = ['softmax', 'sqrt d_k', 'gradient', 'variance'];
async function searchSnippetProblems(page) {
  const probs = [];
  for (const q of SNIPPET_QUERIES) {
    await page.fill('#search', '');
    await page.fill('#search', q);
    try {
      await page.waitForFunction(() => {
        const b = document.getElementById('search-results');
        return !b.hidden && b.querySelector('.search-count');
      }, null, { timeout: 5000 });
    } catch (e) { probs.push(`"${q}": ${String(e.message || e).split('\n')[0]}`); continue; }
    const hits = await page.$$eval('#search-results li', (lis) => lis.map((li) => ({
      title: li.querySelector('a').textContent, text: li.querySelector('span').textContent })));
    if (hits.length === 0) probs.push(`"${q}": nothing found`);
    for (const h of hits) {
      for (const [where, s] of [['title', h.title], ['snippet', h.text]]) {
        const m = /\\[A-Za-z]+|\\[,;:!{}]|[_^]\{/.exec(s);
        if (m) {
          const from = Math.max(0, m.index - 30);
          probs.push(`"${q}": the ${where} of "${h.title.slice(0, 40)}" shows TeX ${m[0]}: ` +
            `…${s.slice(from, m.index + 40)}…`);
        }
      }
    }
  }
  await page.fill('#search', '');
  return probs;
}
const SNIPPET_CHECK = `search: no title or snippet of the results of ${SNIPPET_QUERIES.map((q) => `"${q}"`).join(', ')} shows TeX`;

async function readerTools(browser, desktop) {
  const first = chapterPages.find((p) => fs.existsSync(path.join(HTML, p)));
  if (!first) return;
  const url = (p) => pathToFileURL(path.join(HTML, p)).href;
  const page = await desktop.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url(first), { waitUntil: 'load' });

  // Search: type, see results, follow the first one to its section.
  {
    const probs = [];
    await page.fill('#search', 'softmax temperature');
    try {
      await page.waitForSelector('#search-results li a', { timeout: 5000 });
      const hits = await page.$$eval('#search-results li a', (as) => as.map((a) => a.getAttribute('href')));
      if (hits.length === 0) probs.push('no results for "softmax temperature"');
      await page.press('#search', 'Enter');
      await page.waitForURL((u) => u.href.includes(hits[0].split('#')[0]), { timeout: 5000 });
      const hash = decodeURIComponent(new URL(page.url()).hash.slice(1));
      if (hash && !(await page.$(`[id="${hash}"]`))) probs.push(`result ${hits[0]}: no id "${hash}" there`);
    } catch (e) { probs.push(String(e.message || e).split('\n')[0]); }
    check('search from file:// finds "softmax temperature" and Enter opens the section', probs);
  }

  // Search by MiniSearch (book/build/vendor.sh): a prefix, a typo, an
  // identifier of the code and a formula's symbols each find the section that
  // is about them, ranked first or near it (a title counts most).
  {
    const cases = [
      // [query, what the top results must hold, how many of the top results]
      ['softm', { title: /softmax/i }, 1],
      ['atention', { title: /attention/i }, 1],
      ['scaled dot-product atention', { title: /scaled dot-product attention/i }, 3],
      ['temprature', { text: /temperature/i }, 1],
      ['attention_scores', { text: /attention_scores/ }, 1],
      ['sqrt d_k', { title: /square root of d_k/ }, 1],
      // a symbol by its name: found, and the symbol marked in the snippet
      ['alpha', { text: /α/ }, 1],
    ];
    const probs = [];
    await page.goto(url(first), { waitUntil: 'load' });
    for (const [q, want, top] of cases) {
      await page.fill('#search', '');
      await page.fill('#search', q);
      try {
        await page.waitForFunction(() => {
          const b = document.getElementById('search-results');
          return !b.hidden && b.querySelector('.search-count');
        }, null, { timeout: 5000 });
        const hits = await page.$$eval('#search-results li', (lis) => lis.map((li) => ({
          title: li.querySelector('a').textContent, href: li.querySelector('a').getAttribute('href'),
          text: li.querySelector('span').textContent,
          marked: [...li.querySelectorAll('mark')].map((m) => m.textContent) })));
        if (hits.length === 0) { probs.push(`"${q}": nothing found`); continue; }
        const shown = hits.slice(0, top);
        const ok = shown.some((h) => (want.title ? want.title.test(h.title) : true) &&
          (want.text ? want.text.test(h.text) : true));
        if (!ok) {
          probs.push(`"${q}": none of the first ${top} results ${want.title ? `has a title like ${want.title}` : `shows ${want.text}`}: ` +
            shown.map((h) => h.title).join(' | '));
        }
        if (!hits[0].marked.length) probs.push(`"${q}": the first result marks no matched word`);
        if (want.text && !hits[0].marked.some((m) => want.text.test(m))) {
          probs.push(`"${q}": the first result does not mark ${want.text}: ${hits[0].marked.join(', ')}`);
        }
      } catch (e) { probs.push(`"${q}": ${String(e.message || e).split('\n')[0]}`); }
    }
    // every word must match: a word in no section finds nothing
    await page.fill('#search', 'softmax qwzxvj');
    await page.waitForTimeout(300);
    const none = await page.$$eval('#search-results li', (lis) => lis.length);
    if (none !== 0) probs.push(`"softmax qwzxvj" (a word in no section) found ${none} sections`);
    await page.fill('#search', '');
    check('search: a prefix ("softm"), typos ("atention"), a function (attention_scores), a formula (sqrt d_k), a symbol (alpha)', probs);
  }
  await page.goto(url(first), { waitUntil: 'load' });
  check(SNIPPET_CHECK, await searchSnippetProblems(page));

  // Theme: switch, remembered across pages; the system setting when unset.
  {
    const probs = [];
    await page.goto(url(first), { waitUntil: 'load' });
    const look = () => page.evaluate(() => ({
      theme: document.documentElement.dataset.theme || '',
      bg: getComputedStyle(document.body).backgroundColor,
      fig: getComputedStyle(document.querySelector('figure img') || document.body).filter,
    }));
    const before = await look();
    await page.click('#theme');
    const after = await look();
    if (after.bg === before.bg) probs.push(`the background stayed ${before.bg}`);
    if (after.theme !== 'dark') probs.push(`data-theme is "${after.theme}" after one click from light`);
    if (!/invert/.test(after.fig)) probs.push(`figures are not darkened in dark mode (filter: ${after.fig})`);
    await page.goto(url(chapterPages[chapterPages.length - 1]), { waitUntil: 'load' });
    if ((await look()).theme !== 'dark') probs.push('the choice is not remembered on another page');
    await page.click('#theme');
    if ((await look()).theme !== 'light') probs.push('a second click does not switch back to light');
    const sys = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    const sp = await sys.newPage();
    await sp.goto(url(first), { waitUntil: 'load' });
    const sysBg = await sp.evaluate(() => getComputedStyle(document.body).backgroundColor);
    if (sysBg === before.bg) probs.push(`with the system in dark mode the page stays ${sysBg}`);
    await sp.screenshot({ path: path.join(SHOTS, first.replace(/\.html$/, '-dark.png')), fullPage: FULL_SHOTS });
    await sys.close();
    const sysPhone = await browser.newContext({ viewport: PHONE, colorScheme: 'dark', hasTouch: true });
    const spp = await sysPhone.newPage();
    await spp.goto(url(first), { waitUntil: 'load' });
    await spp.screenshot({ path: path.join(SHOTS, first.replace(/\.html$/, '-phone-dark.png')), fullPage: FULL_SHOTS });
    await sysPhone.close();
    check('theme: switches, is remembered, follows the system setting, darkens figures', probs);
  }

  // The sidebar marks the section being read.
  {
    const probs = [];
    await page.goto(url(first), { waitUntil: 'load' });
    const ids = await page.$$eval('#TOC a[href^="#"]', (as) => as.map((a) => a.getAttribute('href').slice(1)));
    const target = ids[Math.floor(ids.length / 2)];
    if (!target) probs.push('the sidebar has no section links');
    else {
      await page.evaluate((i) => { document.getElementById(decodeURIComponent(i)).scrollIntoView(); scrollBy(0, 10); }, target);
      await page.waitForTimeout(300);
      const cur = await page.$$eval('#TOC a.current', (as) => as.map((a) => a.getAttribute('href')));
      if (cur.length !== 1 || cur[0] !== '#' + target) probs.push(`scrolled to #${target}, the sidebar marks ${cur.join(', ') || 'nothing'}`);
    }
    check('the sidebar marks the section scrolled to', probs);
  }

  // Copy: every listing and output has a button; it copies the code.
  {
    const probs = [];
    await page.goto(url(first), { waitUntil: 'load' });
    const counts = await page.evaluate(() => ({
      boxes: document.querySelectorAll('.listing, .program-output').length,
      buttons: document.querySelectorAll('.listing > button.copy, .program-output > button.copy').length,
    }));
    if (counts.boxes === 0 || counts.boxes !== counts.buttons) {
      probs.push(`${counts.buttons} copy buttons for ${counts.boxes} listings and outputs`);
    }
    await page.evaluate(() => {
      window.__copied = null;
      const fake = (t) => { window.__copied = t; return Promise.resolve(); };
      if (navigator.clipboard) navigator.clipboard.writeText = fake;
      document.execCommand = () => { window.__copied = document.activeElement.value; return true; };
    });
    await page.click('.listing > button.copy');
    const got = await page.evaluate(() => ({
      copied: window.__copied, text: document.querySelector('.listing pre').innerText.replace(/\n$/, ''),
      label: document.querySelector('.listing > button.copy').textContent,
    }));
    if (got.copied !== got.text) probs.push(`copied ${JSON.stringify((got.copied || '').slice(0, 40))}, ` +
      `the listing starts ${JSON.stringify(got.text.slice(0, 40))}`);
    if (got.label !== 'Copied') probs.push(`the button says "${got.label}" after a click`);
    check(`copy buttons on every listing and output of ${first} (${counts.boxes}) copy the code`, probs);
  }

  // Keys: right arrow to the next chapter, left arrow back.
  if (chapterPages.length > 1) {
    const probs = [];
    await page.goto(url(chapterPages[0]), { waitUntil: 'load' });
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.href.endsWith(chapterPages[1]), { timeout: 5000 })
      .catch(() => probs.push(`→ on ${chapterPages[0]} went to ${page.url()}`));
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL((u) => u.href.endsWith(chapterPages[0]), { timeout: 5000 })
      .catch(() => probs.push(`← on ${chapterPages[1]} went to ${page.url()}`));
    await page.focus('#search');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    if (!page.url().endsWith(chapterPages[0])) probs.push('→ in the search box changed the page');
    check('← / → keys go to the previous / next chapter (not while typing)', probs);
  }

  // A reference into another chapter: "Figure N.k" / "Section N.k" that opens
  // the other page at the label.
  {
    const probs = [];
    let found = null;
    for (const p of chapterPages) {
      await page.goto(url(p), { waitUntil: 'load' });
      found = await page.evaluate(() => {
        const a = [...document.querySelectorAll('main a[href*=".html#"]')]
          .find((x) => /^(Figure|Section|Equation|Chapter) \d+(\.\d+)*$/.test(x.textContent.trim()));
        return a ? { href: a.getAttribute('href'), text: a.textContent.trim() } : null;
      });
      if (found) { found.from = p; break; }
    }
    if (!found) probs.push('no chapter has a reference into another chapter');
    else {
      await page.click(`main a[href="${found.href}"]`);
      await page.waitForLoadState('load');
      const id = decodeURIComponent(found.href.split('#')[1]);
      const ok = await page.evaluate((i) => {
        const el = document.getElementById(i);
        if (!el) return 'missing';
        const r = el.getBoundingClientRect();
        return r.top < innerHeight && r.bottom > 0 ? 'shown' : 'not scrolled into view';
      }, id);
      if (ok !== 'shown') probs.push(`${found.from}: "${found.text}" -> ${found.href}: target ${ok}`);
      const num = found.text.split(' ')[1];
      const label = await page.evaluate((i) => {
        const el = document.getElementById(i);
        return el ? (el.closest('figure') || el).textContent.slice(0, 300) : '';
      }, id);
      if (!label.includes(num)) probs.push(`the target of "${found.text}" does not show the number ${num}`);
    }
    check(`a reference into another chapter opens there${found ? ` (${found.from}: ${found.text})` : ''}`, probs);
  }
  // Keyboard: the first Tab reaches the skip link, which moves focus to the
  // text; "/" jumps to the search box.
  {
    const probs = [];
    await page.goto(url(first), { waitUntil: 'load' });
    await page.keyboard.press('Tab');
    const f1 = await page.evaluate(() => document.activeElement.className);
    if (f1 !== 'skip') probs.push(`the first Tab focuses "${f1}", not the skip link`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    const f2 = await page.evaluate(() => document.activeElement.id);
    if (f2 !== 'content') probs.push(`the skip link leaves focus on "${f2}"`);
    await page.keyboard.press('/');
    const f3 = await page.evaluate(() => document.activeElement.id);
    if (f3 !== 'search') probs.push(`"/" focuses "${f3}", not the search box`);
    check('keyboard: skip link to the text, "/" to search', probs);
  }
  check("the reader's tools raise no page errors", errors);
  await page.close();
}

const timer = setTimeout(() => {
  result(false, 'the browser test finished in time', 'gave up after 480 s');
  process.exit(1);
}, 480000);
// `node check.mjs BUILD --search-snippets`: that one check, on BUILD/html's first
// chapter page (tests/browser.sh runs it on a book whose index keeps raw TeX).
async function searchOnly() {
  const browser = await chromium.launch({ executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--host-resolver-rules=MAP * ~NOTFOUND'] });
  try {
    const first = chapterPages.find((p) => fs.existsSync(path.join(HTML, p)));
    if (!first) { result(false, SNIPPET_CHECK, `no chapter page in ${HTML}`); return; }
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(pathToFileURL(path.join(HTML, first)).href, { waitUntil: 'load' });
    check(SNIPPET_CHECK, await searchSnippetProblems(page));
  } finally {
    await browser.close();
  }
}
(process.argv[3] === '--search-snippets' ? searchOnly() : main())
  .then(() => { clearTimeout(timer); process.exitCode = failed ? 1 : 0; })
  .catch((e) => {
    clearTimeout(timer);
    result(false, 'the browser test ran', String(e && e.stack || e));
    process.exitCode = 1;
  });
