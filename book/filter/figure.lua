-- figure.lua -- the figure directive: a gnuplot script's drawing.
--
--   ![Caption](figures/chNN_name.gp){#fig:name}
--
-- becomes BUILD/figures/chNN_name.svg in HTML (caption prefixed "Figure N.k.")
-- and ../figures/chNN_name.pdf in LaTeX (numbered by LaTeX itself).
-- number(img) runs over the whole document first, so that references
-- (filter/xref.lua) can point forward.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')

local M = {}

M.numbers = {}   -- "fig:name" -> "N.k"

-- Pass 1: give every figure with an id its number "chapter.k".
function M.number(img)
  if not img.title:match('^fig:') then return end
  book.cur.figures = book.cur.figures + 1
  if img.identifier == '' then return end
  if M.numbers[img.identifier] then
    errors.fail(errors.locate(img.identifier), 'figure id ' .. img.identifier .. ' used twice')
  end
  M.numbers[img.identifier] = string.format('%d.%d', book.cur.number, book.cur.figures)
end

-- Pass 2: point the image at the drawn figure.
function M.directive(img)
  local script = img.src:match('^(figures/[%w_%-]+)%.gp$')
  if not script then return nil end
  local where = errors.locate(img.src)
  local name = script:match('figures/(.*)')
  if not util.exists(img.src) then errors.fail(where, 'no figure script ' .. img.src) return nil end
  local ext = book.IS_LATEX and 'pdf' or 'svg'
  local out = book.BUILD .. '/figures/' .. name .. '.' .. ext
  if not util.exists(out) then
    errors.fail(where, 'figure ' .. out .. ' was not drawn (make figures)')
    return nil
  end
  deps.depend(out)
  -- xelatex runs inside BUILD/tex (see the Makefile): a path relative to it
  -- keeps the PDF independent of where the build directory is.
  img.src = book.IS_LATEX and ('../figures/' .. name .. '.' .. ext) or out
  local num = M.numbers[img.identifier]
  if book.IS_HTML and img.title:match('^fig:') and img.identifier ~= '' and num then
    img.caption = pandoc.List({ pandoc.Strong({ pandoc.Str('Figure ' .. num .. '.') }),
      pandoc.Space() }) .. img.caption
  end
  return img
end

return M
