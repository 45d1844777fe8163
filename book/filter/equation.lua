-- equation.lua -- display math is numbered per chapter: (N.k).
-- LaTeX numbers an equation environment itself (\numberwithin in preamble.tex);
-- HTML gets a Span.equation with the math and a Span.eqno.
local book = require('filter.book')

local M = {}

function M.directive(m)
  if m.mathtype ~= 'DisplayMath' then return nil end
  book.cur.equations = book.cur.equations + 1
  if book.IS_LATEX then
    return pandoc.RawInline('latex', '\\begin{equation}' .. m.text .. '\\end{equation}')
  end
  local num = string.format('(%d.%d)', book.cur.number, book.cur.equations)
  return pandoc.Span({ m, pandoc.Span({ pandoc.Str(num) }, pandoc.Attr('', { 'eqno' })) },
    pandoc.Attr('', { 'equation' }))
end

return M
