-- figure.lua -- the figure directive: a gnuplot plot or a TikZ diagram.
--
--   ![Caption](figures/chNN_name.gp){#fig:name}     gnuplot script
--   ![Caption](figures/chNN_name.tex){#fig:name}    TikZ picture (figures/diagram.tex)
--
-- becomes BUILD/figures/chNN_name.svg in HTML (caption prefixed "Figure N.k.")
-- and ../figures/chNN_name.pdf in LaTeX (numbered by LaTeX itself). Numbers
-- come from labels.lua. The caption is the figure's alt text: a figure
-- without one fails the build.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')
local labels = require('filter.labels')

local M = {}

-- Point the image at the drawn figure.
function M.directive(img)
  local script = img.src:match('^(figures/[%w_%-]+)%.gp$')
    or img.src:match('^(figures/[%w_%-]+)%.tex$')
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
  -- A diagram's text is text at its own size (book/build/diagram.sh): on a
  -- phone it keeps that size and scrolls sideways (book/style.css).
  if img.src:match('%.tex$') then img.classes:insert('diagram') end
  -- xelatex runs inside BUILD/tex (see the Makefile): a path relative to it
  -- keeps the PDF independent of where the build directory is.
  img.src = book.IS_LATEX and ('../figures/' .. name .. '.' .. ext) or out
  if pandoc.utils.stringify(img.caption):match('^%s*$') and not img.attributes.alt then
    errors.fail(where, 'figure ' .. img.src .. ' has no caption (its alt text)')
  end
  local e = labels.entries[img.identifier]
  local num = e and e.kind == 'Figure' and e.number
  if book.IS_HTML and img.title:match('^fig:') and img.identifier ~= '' and num then
    img.caption = pandoc.List({ pandoc.Strong({ pandoc.Str('Figure ' .. num .. '.') }),
      pandoc.Space() }) .. img.caption
  end
  return img
end

return M
