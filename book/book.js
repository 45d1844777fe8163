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

  // Search: the index is a script (fetch() is refused on file://), loaded on
  // first use. Every word of the query must occur; titles count most.
  var input = document.getElementById('search');
  var box = document.getElementById('search-results');
  if (!input || !box) return;
  function load(then) {
    if (window.BOOK_SEARCH) return then();
    var s = document.createElement('script');
    s.src = 'search-index.js';
    s.onload = then;
    s.onerror = function () { box.hidden = false; box.textContent = 'The search index is missing.'; };
    document.head.appendChild(s);
  }
  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
    });
  }
  function search(q) {
    var words = q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    if (!words.length) return [];
    var hits = [];
    window.BOOK_SEARCH.forEach(function (r) {
      var title = r.t.toLowerCase(), text = r.x.toLowerCase(), score = 0;
      for (var i = 0; i < words.length; i++) {
        var inTitle = title.indexOf(words[i]) >= 0, at = text.indexOf(words[i]);
        if (!inTitle && at < 0) return;
        score += inTitle ? 10 : 0;
        for (var n = 0; at >= 0 && n < 10; n++) { score += 1; at = text.indexOf(words[i], at + 1); }
      }
      hits.push({ r: r, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits.slice(0, 12).map(function (h) {
      var text = h.r.x, at = Math.max(0, text.toLowerCase().indexOf(words[0]));
      var from = Math.max(0, at - 50), piece = text.slice(from, at + 90);
      var marked = esc(piece).replace(new RegExp('(' + words.map(function (w) {
        return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }).join('|') + ')', 'gi'), '<mark>$1</mark>');
      return '<li><a href="' + esc(h.r.p + (h.r.i ? '#' + h.r.i : '')) + '">' + esc(h.r.t) +
        '</a><span>' + (from > 0 ? '… ' : '') + marked + ' …</span></li>';
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
