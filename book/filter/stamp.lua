-- stamp.lua -- the build stamp: which commit, compiler and date made this
-- book. The Makefile writes BUILD/stamp.txt ("commit<TAB>compiler<TAB>date",
-- the date from SOURCE_DATE_EPOCH); HTML pages show it in their footer
-- (template variable build-stamp), the PDF on the back of the title page.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')

return function(meta)
  local path = book.BUILD .. '/stamp.txt'
  local text = util.read_file(path)
  if not text then return end
  deps.depend(path)
  local commit, compiler, date = text:match('^([^\t]*)\t([^\t]*)\t([^\t\n]*)')
  if not commit then return end
  -- Outside a git checkout there is no commit to name.
  local from = commit ~= '' and ('commit ' .. commit) or 'a tree outside git'
  local line = string.format('Built from %s with %s on %s.', from, compiler, date)
  meta['build-stamp'] = line
  if book.IS_LATEX then
    local esc = line:gsub('[\\{}$&#_%%~^]', function(c) return '\\' .. c .. '{}' end)
    esc = esc:gsub('%-', '-{}')   -- no "--" ligature in dates
    local tex = '\\clearpage\\thispagestyle{empty}\\null\\vfill\n'
      .. '\\noindent{\\small\\textit{' .. (pandoc.utils.stringify(meta.title or '')) .. '}\\\\[.4em]\n'
      .. esc .. '\\\\[.4em]\nEvery listing, number and figure in this book was produced by that build.}\n'
      .. '\\clearpage\n'
    meta['include-before'] = pandoc.MetaBlocks({ pandoc.RawBlock('latex', tex) })
  end
end
