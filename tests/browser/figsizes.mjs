// figsizes.mjs -- how large a figure's text renders on a page of the book, in
// Chromium: shared by tests/browser/figures.mjs (its `sizes` mode, for pages of
// its own) and tests/browser/check.mjs (the book's pages, measured on the page it
// has loaded already, so that no page is loaded twice for it).
//
// A figure is an <img> of an SVG; its SVG is laid over the <img>, at the <img>'s
// laid-out box, and each text's computed font size (each <text> and <tspan>: a
// superscript too) is multiplied by the SVG's scale on the screen. Every text
// must render at MIN_PX CSS px or more.

export const MIN_PX = 11;

// In the page: the box of every figure <img> holding an SVG, as shown.
function figureBoxes() {
  return [...document.querySelectorAll('img')]
    .filter((i) => /\.svg$|^data:image\/svg/.test(i.getAttribute('src') || ''))
    .map((i) => { const r = i.getBoundingClientRect();
      return [i.id || i.alt.slice(0, 40), r.left, r.top, r.width, r.height]; });
}

// In the page: the smallest text of every figure <img> holding an SVG.
function measureSizes() {
  const out = [];
  const imgs = [...document.querySelectorAll('img')]
    .filter((i) => /\.svg$|^data:image\/svg/.test(i.getAttribute('src') || ''));
  for (const img of imgs) {
    const src = img.getAttribute('src');
    let text;
    if (src.startsWith('data:')) {
      const b64 = src.slice(src.indexOf(',') + 1);
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      text = new TextDecoder().decode(bytes);
    } else {
      const x = new XMLHttpRequest();
      x.open('GET', img.src, false);
      x.send();
      text = x.responseText;
    }
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const r = img.getBoundingClientRect();
    const name = img.id || img.alt.slice(0, 40);
    if (r.width === 0) { out.push({ name, error: 'not shown (width 0)' }); continue; }
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;' +
      `left:${r.left + scrollX}px;top:${r.top + scrollY}px;` +
      `width:${r.width}px;height:${r.height}px;visibility:hidden;zoom:1`;
    svg.setAttribute('width', '100%');
    svg.setAttribute('height', '100%');
    box.appendChild(document.importNode(svg, true));
    document.body.appendChild(box);
    const s = box.firstChild;
    const vb = s.viewBox.baseVal;
    const scale = vb && vb.width ? s.getBoundingClientRect().width / vb.width : 1;
    let min = Infinity, what = '', n = 0;
    for (const t of s.querySelectorAll('text, tspan')) {
      if (!t.textContent.trim()) continue;
      // a <text> whose every character sits in a <tspan> is measured by its tspans
      const own = [...t.childNodes]
        .some((c) => c.nodeType === 3 && c.textContent.trim());
      if (t.tagName === 'text' && t.children.length && !own) continue;
      n += 1;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < min) { min = px; what = t.textContent.trim().slice(0, 30); }
    }
    box.remove();
    out.push({ name, min, what, n, shown: Math.round(r.width) });
  }
  return out;
}

// figureSizes(page, name, width): the page (a Playwright page, already at that
// width) in the light and then the dark theme, as the system setting and as the
// reader's own choice (data-theme, which book.js sets); returns { figures: how
// many were measured, faults: { light: [...], dark: [...] } }, each fault a line
// "SIZE WIDTH SCHEME NAME: ...". The page's theme is then what it was before.
export async function figureSizes(page, name, width) {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? null);
  const faults = { light: [], dark: [] };
  let figures = 0;
  // A text's size is its font size times the width its <img> is shown at, so
  // where the dark theme shows every figure in the box the light theme did, it
  // measures what the light one did; only a page whose boxes differ is measured
  // again.
  let light = null, lightBoxes = null;
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((sc) => { document.documentElement.dataset.theme = sc; }, scheme);
    const boxes = JSON.stringify(await page.evaluate(figureBoxes));
    const found = light && boxes === lightBoxes ? light : await page.evaluate(measureSizes);
    if (!light) { light = found; lightBoxes = boxes; }
    figures += found.length;
    for (const f of found) {
      if (f.error) faults[scheme].push(`SIZE ${width} ${scheme} ${name}: ${f.name}: ${f.error}`);
      else if (f.n > 0 && f.min < MIN_PX - 0.01) {
        faults[scheme].push(`SIZE ${width} ${scheme} ${name}: ${f.name} (shown ${f.shown} px wide): ` +
          `text '${f.what}' is ${f.min.toFixed(1)} px (under ${MIN_PX})`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: null });
  await page.evaluate((t) => {
    if (t === null) delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = t;
  }, before);
  return { figures, faults };
}
