-- deps.lua -- the make dependency file: every file a page was made from.
--
-- depend(path) records a file; write() writes LITERATE_DEPS as a make rule for
-- LITERATE_TARGET, and beside it (.snippets) the log of which chapter line
-- showed which snippet, read by book/check-snippets.sh.
local util = require('filter.util')

local M = {}

local TARGET = os.getenv('LITERATE_TARGET')
local DEPS = os.getenv('LITERATE_DEPS')

local seen, list = {}, {}
local snippet_log = {}

function M.depend(path)
  if not seen[path] then
    seen[path] = true
    list[#list + 1] = path
  end
end

-- where: "chapter.md:LINE", path: the source file, name: the snippet.
function M.log_snippet(where, path, name)
  snippet_log[#snippet_log + 1] = where .. '\t' .. path .. '\t' .. name
end

function M.write()
  if not (DEPS and TARGET) then return end
  local out = { TARGET .. ':' }
  for _, d in ipairs(list) do out[#out + 1] = ' \\\n  ' .. d end
  out[#out + 1] = '\n'
  -- Sources may disappear: an empty rule each keeps make from failing then.
  for _, d in ipairs(list) do
    if d:match('^code/') or d:match('^chapters/') then out[#out + 1] = d .. ':\n' end
  end
  util.write_atomically(DEPS, table.concat(out))
  util.write_atomically(DEPS:gsub('%.d$', '') .. '.snippets', table.concat(snippet_log, '\n') .. '\n')
end

return M
