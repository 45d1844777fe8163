-- xref.lua -- the reference directive: an empty link to a figure.
--
--   [](#fig:name)   ->   "Figure N.k" (a link in HTML, \ref in LaTeX)
local figure = require('filter.figure')
local book = require('filter.book')
local errors = require('filter.errors')

local M = {}

function M.directive(link)
  local id = link.target:match('^#(fig:[%w_%-]+)$')
  if not id or #link.content > 0 then return nil end
  local num = figure.numbers[id]
  if not num then
    errors.fail(errors.locate('(#' .. id .. ')'), 'reference to unknown figure ' .. id)
    return nil
  end
  if book.IS_LATEX then return pandoc.RawInline('latex', 'Figure~\\ref{' .. id .. '}') end
  link.content = { pandoc.Str('Figure'), pandoc.Space(), pandoc.Str(num) }
  return link
end

return M
