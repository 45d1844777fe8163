-- navigation.lua -- previous/next chapter links for a one-chapter HTML page,
-- as template variables prev-href, prev-title, next-href, next-title
-- (see book/template.html), chapter-number, and the download of the chapter's
-- program (download-href, download-name).
local book = require('filter.book')

return function(meta)
  local me = book.chapter_files[1]
  for i, f in ipairs(book.all_chapters) do
    if f == me then
      local prev, nxt = book.all_chapters[i - 1], book.all_chapters[i + 1]
      if prev then
        meta['prev-href'] = book.html_name(prev)
        meta['prev-title'] = book.title_of(prev) or prev
      end
      if nxt then
        meta['next-href'] = book.html_name(nxt)
        meta['next-title'] = book.title_of(nxt) or nxt
      end
    end
  end
  meta['chapter-number'] = tostring(book.cur.number)
  -- The chapter's program and the library, as a tarball (see the Makefile).
  if book.cur.program then
    meta['download-href'] = 'download/' .. book.cur.program .. '.tar.gz'
    meta['download-name'] = book.cur.program .. '.tar.gz'
  end
end
