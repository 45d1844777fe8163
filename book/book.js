// book.js -- the reader's comforts, all offline (the page may be opened from
// file://): theme switch, search, copy buttons, arrow keys, current section.
// Inlined into every page by pandoc --self-contained.
(function () {
  'use strict';
  var root = document.documentElement;

  // Theme: the system setting unless the reader chose; the choice is remembered.
  var themeButton = document.getElementById('theme');
  function dark() {
    var t = root.dataset.theme;
    return t ? t === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  }
  function showTheme() {
    if (!themeButton) return;
    themeButton.setAttribute('aria-pressed', dark() ? 'true' : 'false');
    themeButton.title = dark() ? 'Dark (click for light)' : 'Light (click for dark)';
  }
  if (themeButton) {
    themeButton.addEventListener('click', function () {
      root.dataset.theme = dark() ? 'light' : 'dark';
      try { localStorage.setItem('aic-theme', root.dataset.theme); } catch (e) { /* private mode */ }
      showTheme();
    });
    showTheme();
  }

  // Copy buttons on listings and program outputs.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  }
  document.querySelectorAll('.listing, .program-output').forEach(function (box) {
    var pre = box.querySelector('pre');
    if (!pre) return;
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'copy';
    b.textContent = 'Copy';
    var what = box.classList.contains('listing') ? 'listing' : 'output';
    b.setAttribute('aria-label', 'Copy this ' + what);
    b.addEventListener('click', function () {
      copyText(pre.innerText.replace(/\n$/, '')).then(function () {
        b.textContent = 'Copied';
      }, function () {
        b.textContent = 'Select and copy';
      });
      setTimeout(function () { b.textContent = 'Copy'; }, 1600);
    });
    box.insertBefore(b, box.firstChild);
  });

  // Arrow keys: previous and next chapter.
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var rel = e.key === 'ArrowLeft' ? 'prev' : e.key === 'ArrowRight' ? 'next' : null;
    var a = rel && document.querySelector('a[rel="' + rel + '"]');
    if (a) { e.preventDefault(); location.href = a.href; }
  });

  // The sidebar marks the section being read.
  var tocLinks = {};
  document.querySelectorAll('#TOC a[href^="#"]').forEach(function (a) {
    tocLinks[decodeURIComponent(a.getAttribute('href').slice(1))] = a;
  });
  var sections = Object.keys(tocLinks).map(function (id) { return document.getElementById(id); })
    .filter(Boolean);
  var current = null, pending = false;
  function mark() {
    pending = false;
    var best = null;
    for (var i = 0; i < sections.length; i++) {
      if (sections[i].getBoundingClientRect().top < 120) best = sections[i];
    }
    var a = best ? tocLinks[best.id] : null;
    if (a === current) return;
    if (current) { current.classList.remove('current'); current.removeAttribute('aria-current'); }
    if (a) { a.classList.add('current'); a.setAttribute('aria-current', 'location'); }
    current = a;
  }
  if (sections.length) {
    addEventListener('scroll', function () {
      if (!pending) { pending = true; requestAnimationFrame(mark); }
    }, { passive: true });
    mark();
  }

  // Search: MiniSearch (npm, copied into the book by book/build/vendor.sh)
  // indexes the records of search-index.js; both are scripts loaded on first
  // use (fetch() is refused on file://). Every word of the query must match,
  // as a prefix ("softm") or with a typo ("atention"); a match in a section's
  // title counts most, then in the headings around it, then in its text and
  // the names of its formulas' symbols (m: "sqrt", "alpha"; never shown, the
  // text has the maths as plain text, √d_k, α).
  var input = document.getElementById('search');
  var box = document.getElementById('search-results');
  if (!input || !box) return;
  var engine = null, loading = null;
  // Words are letters, digits and '_'. In the text an identifier is a word and
  // so is each of its parts (softmax_rows: softmax_rows, softmax, rows); in a
  // query it is one word, so "softmax_rows" finds that function, not "softmax".
  function words(s) {
    return s.match(/[\p{L}\p{N}_]+/gu) || [];
  }
  function textWords(s) {
    var out = [];
    words(s).forEach(function (w) {
      out.push(w);
      if (w.indexOf('_') > 0) w.split('_').forEach(function (part) { if (part) out.push(part); });
    });
    return out;
  }
  function script(src, then) {
    var s = document.createElement('script');
    s.src = src;
    s.onload = then;
    s.onerror = function () { box.hidden = false; box.textContent = 'The search (' + src + ') is missing.'; };
    document.head.appendChild(s);
  }
  function load(then) {
    if (engine) return then();
    if (loading) return loading.push(then);
    loading = [then];
    script('minisearch.js', function () {
      script('search-index.js', function () {
        engine = new window.MiniSearch({
          idField: 'k', fields: ['t', 'h', 'x', 'm'], tokenize: textWords,
          searchOptions: {
            tokenize: words,
            boost: { t: 6, h: 2, x: 1, m: 1 }, combineWith: 'AND',
            prefix: function (term) { return term.length >= 3; },
            fuzzy: function (term) { return term.length >= 5 ? 0.2 : false; },
          },
        });
        engine.addAll(window.BOOK_SEARCH.map(function (r, k) { r.k = k; return r; }));
        var waiting = loading; loading = null;
        waiting.forEach(function (f) { f(); });
      });
    });
  }
  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
    });
  }
  function search(q) {
    if (!words(q).length) return [];
    return engine.search(q).slice(0, 12).map(function (hit) {
      var r = window.BOOK_SEARCH[hit.id];
      // a symbol's name that matched ("alpha") marks the symbol (α) in the text
      var symbols = (r.m || '').split(' ').map(function (p) { return p.split(':'); })
        .filter(function (p) { return p[1] && hit.terms.indexOf(p[0]) >= 0; })
        .map(function (p) { return p[1]; });
      var terms = hit.terms.concat(symbols).sort(function (a, b) { return b.length - a.length; })
        .map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); });
      var find = new RegExp('(?<![\\p{L}\\p{N}])(' + terms.join('|') + ')', 'giu');
      var text = r.x, at = text.search(find);
      if (at < 0) at = 0;
      var from = Math.max(0, at - 50), piece = text.slice(from, at + 90);
      return '<li><a href="' + esc(r.p + (r.i ? '#' + r.i : '')) + '">' + esc(r.t) +
        '</a><span>' + (from > 0 ? '… ' : '') + esc(piece).replace(find, '<mark>$1</mark>') + ' …</span></li>';
    });
  }
  function show() {
    var q = input.value.trim();
    if (!q) { box.hidden = true; box.innerHTML = ''; return; }
    load(function () {
      var items = search(q);
      box.hidden = false;
      box.innerHTML = items.length
        ? '<p class="search-count" role="status">' + items.length + (items.length === 12 ? '+' : '') +
          ' section' + (items.length === 1 ? '' : 's') + '</p><ul>' + items.join('') + '</ul>'
        : '<p class="search-count" role="status">Nothing found.</p>';
    });
  }
  input.addEventListener('input', show);
  input.addEventListener('focus', function () { load(function () {}); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') {
      var first = box.querySelector('a');
      if (first) location.href = first.href;
    } else if (e.key === 'Escape') {
      input.value = ''; show();
    } else if (e.key === 'ArrowDown') {
      var a = box.querySelector('a');
      if (a) { e.preventDefault(); a.focus(); }
    }
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && document.activeElement !== input &&
        !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
      e.preventDefault(); input.focus();
    }
  });
  document.addEventListener('click', function (e) {
    if (!e.target.closest('.search')) box.hidden = true;
  });
})();
