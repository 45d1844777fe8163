-- value.lua -- the value directive: a number the program recorded.
--
--   [nw_best_h]{.val}
--
-- The chapter's program (or program=) wrote "KEY<TAB>VALUE" lines into
-- BUILD/data/PROGRAM/values.tsv; the span becomes VALUE.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')

local M = {}

local cache = {}   -- path -> { key = value } or false

-- Returns the value, or nil and a reason.
function M.lookup(program, key)
  local path = book.BUILD .. '/data/' .. program .. '/values.tsv'
  if cache[path] == nil then
    local text = util.read_file(path)
    local map = false
    if text then
      map = {}
      for _, line in ipairs(util.lines_of(text)) do
        local k, v = line:match('^([^\t]+)\t(.*)$')
        if k then map[k] = v end
      end
    end
    cache[path] = map
  end
  local map = cache[path]
  if not map then return nil, 'no values file ' .. path end
  deps.depend(path)
  if map[key] == nil then return nil, "program " .. program .. " records no value '" .. key .. "'" end
  return map[key]
end

-- Span with class .val: the value (in HTML a Span.val saying who computed it).
function M.directive(el)
  if not el.classes:includes('val') then return nil end
  local key = pandoc.utils.stringify(el.content)
  local program = el.attributes.program or book.cur.program
  local where = errors.locate('[' .. key .. ']{.val')
  if not program then errors.fail(where, 'no program for this chapter') return nil end
  local v, why = M.lookup(program, key)
  if not v then errors.fail(where, why) return nil end
  if book.IS_HTML then
    return pandoc.Span({ pandoc.Str(v) },
      pandoc.Attr('', { 'val' }, { { 'title', 'computed by ' .. program } }))
  end
  return pandoc.Str(v)
end

return M
