-- xref.lua -- the reference directive: an empty link to a label anywhere in
-- the book (see labels.lua), written the same way from every chapter:
--
--   [](#fig:name)   "Figure 5.3"      [](#sec:name)   "Section 3.2"
--   [](#eq:name)    "Equation 2.1"    (a level-1 #sec: header: "Chapter 3")
--
-- HTML: a link, to "#id" when the label is on this page, else to the other
-- chapter's page. LaTeX: Figure~\ref{id}, so LaTeX numbers it too.
-- An unknown id fails the build with the chapter file and line.
local labels = require('filter.labels')
local book = require('filter.book')
local errors = require('filter.errors')

local M = {}

local kinds = { fig = 'figure', sec = 'section', eq = 'equation' }

function M.directive(link)
  local prefix = link.target:match('^#(%a+):[%w_%-]+$')
  if not prefix or not kinds[prefix] or #link.content > 0 then return nil end
  local id = link.target:sub(2)
  local e = labels.entries[id]
  if not e then
    errors.fail(errors.locate('(#' .. id .. ')'), 'reference to unknown ' .. kinds[prefix] .. ' ' .. id)
    return nil
  end
  if book.IS_LATEX then return pandoc.RawInline('latex', e.kind .. '~\\ref{' .. id .. '}') end
  local here = book.WHOLE_BOOK
  for _, f in ipairs(book.chapter_files) do here = here or f == e.file end
  if not here then link.target = book.html_name(e.file) .. '#' .. id end
  link.content = { pandoc.Str(e.kind), pandoc.Space(), pandoc.Str(e.number) }
  return link
end

return M
