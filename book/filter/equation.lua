-- equation.lua -- display math is numbered per chapter: (N.k).
--
--   $$ a = b $$ {#eq:name}     a label, for [](#eq:name) (see xref.lua)
--
-- LaTeX numbers an equation environment itself (\numberwithin in preamble.tex);
-- HTML gets a Span.equation (with the label as its id) holding the math and a
-- Span.eqno. The "{#eq:name}" text after the math is removed.
local book = require('filter.book')
local labels = require('filter.labels')

local M = {}

local function equation(m, id)
  book.cur.equations = book.cur.equations + 1
  if book.IS_LATEX then
    local label = id and ('\\label{' .. id .. '}') or ''
    return pandoc.RawInline('latex', '\\begin{equation}' .. label .. m.text .. '\\end{equation}')
  end
  local num = string.format('(%d.%d)', book.cur.number, book.cur.equations)
  return pandoc.Span({ m, pandoc.Span({ pandoc.Str(num) }, pandoc.Attr('', { 'eqno' })) },
    pandoc.Attr(id or '', { 'equation' }))
end

-- Inlines: each display math, with the label that follows it (if any).
function M.directive(inlines)
  local out, i, changed = pandoc.List(), 1, false
  while i <= #inlines do
    local el = inlines[i]
    if el.t == 'Math' and el.mathtype == 'DisplayMath' then
      local id, last = labels.equation_label(inlines, i)
      out:insert(equation(el, id))
      i = (last or i) + 1
      changed = true
    else
      out:insert(el)
      i = i + 1
    end
  end
  if changed then return out end
  return nil
end

return M
