-- errors.lua -- problems reported as FILE:LINE: message.
--
-- A Lua filter sees the parsed document, not source positions, so locate()
-- finds the line in the current chapter file that contains the directive's
-- text. fail() collects; finish() prints everything and exits non-zero.
local util = require('filter.util')
local book = require('filter.book')

local M = {}

local errors = {}
local located = {}
local lines_of = {}   -- file -> its lines, split once (locate runs for every directive)

-- Where in the current chapter file does a directive sit? The first line
-- containing every needle not yet reported for the same needles.
function M.locate(...)
  local file = book.cur.file
  local needles = { ... }
  local text = util.read_file(file)
  if not text then return file .. ':?' end
  local key = file .. '\0' .. table.concat(needles, '\0')
  local skip = located[key] or 0
  local seen = 0
  lines_of[file] = lines_of[file] or util.lines_of(text)
  for i, line in ipairs(lines_of[file]) do
    local all = true
    for _, n in ipairs(needles) do
      if not line:find(n, 1, true) then all = false break end
    end
    if all then
      seen = seen + 1
      if seen > skip then
        located[key] = seen
        return file .. ':' .. i
      end
    end
  end
  return file .. ':?'
end

function M.fail(where, msg)
  errors[#errors + 1] = where .. ': ' .. msg
end

-- If anything failed: print it all to stderr and exit 1.
function M.finish()
  if #errors == 0 then return end
  for _, e in ipairs(errors) do io.stderr:write(e, '\n') end
  io.stderr:write(string.format('literate.lua: %d unresolved directive(s)\n', #errors))
  os.exit(1)
end

return M
