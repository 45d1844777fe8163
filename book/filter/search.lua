-- search.lua -- the records of the offline search: one per section of a
-- chapter page (page p, id i, number and title t, the headings around and
-- inside it h, text x, the names of its formulas' symbols m, "alpha:α"), written as JavaScript object literals to LITERATE_DEPS
-- with ".search" for ".d". The Makefile joins them into
-- BUILD/html/search-index.js, which book/book.js loads with a <script> tag
-- (fetch() does not work from file://) and indexes with MiniSearch.
-- Maths is indexed as plain text (plainmath.lua: \sqrt{d_k} -> √d_k), which a
-- result's snippet shows; the names of its commands (sqrt, alpha) go to m,
-- indexed but never shown, so that "sqrt d_k" still finds the formula.
local util = require('filter.util')
local book = require('filter.book')
local plainmath = require('filter.plainmath')

local M = {}

local function json(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == '\\' then return '\\\\'
    elseif c == '\n' or c == '\t' or c == '\r' then return ' ' end
    return string.format('\\u%04x', c:byte())
  end) .. '"'
end

-- The text of a block, its maths as plain text; the names of the maths'
-- commands are added to the set `names` (a list and a lookup).
local function plain(block, names)
  local walked = pandoc.walk_block(block, {
    Math = function(m)
      local text, said = plainmath.convert(m.text)
      for _, name in ipairs(said) do
        if not names[name] then names[name] = true; names[#names + 1] = name end
      end
      return pandoc.Str(text)
    end,
    Span = function(s)      -- an equation's number, apart from the maths before it
      if s.classes:includes('eqno') then return pandoc.Str(' ' .. pandoc.utils.stringify(s) .. ' ') end
    end,
  })
  return pandoc.utils.stringify(walked)
end

-- The names of a record's symbols, each followed by the symbol it stands for
-- when it has one ("sqrt:√ alpha:α exp"): the words are indexed, and book.js
-- marks the symbol in a snippet when the name matched.
local function symbols(names)
  local out = {}
  for _, name in ipairs(names) do
    local sym = plainmath.symbol(name)
    out[#out + 1] = sym and (name .. ':' .. sym) or name
  end
  return table.concat(out, ' ')
end

function M.write(blocks)
  local deps_file = os.getenv('LITERATE_DEPS')
  if not deps_file then return end
  local page = book.html_name(book.chapter_files[1])
  local records, cur = {}, nil
  local number, above = {}, {}
  for _, b in ipairs(blocks) do
    if b.t == 'Header' and b.level <= 3 then
      local names = {}
      local title = plain(b, names)
      if not b.classes:includes('unnumbered') then
        number[b.level] = (number[b.level] or 0) + 1
        for l = b.level + 1, 6 do number[l] = nil end
        local parts = { tostring(book.cur.number) }
        for l = 2, b.level do parts[#parts + 1] = tostring(number[l] or 0) end
        title = table.concat(parts, '.') .. ' ' .. title
      end
      for l = b.level, 6 do above[l] = nil end
      -- headings: the chapter and section the record sits in, then the
      -- headings below level 3 inside it
      local heads = {}
      for l = 1, b.level - 1 do heads[#heads + 1] = above[l] end
      above[b.level] = title
      cur = { id = b.level == 1 and '' or b.identifier, title = title, heads = heads, text = {},
        names = names }
      records[#records + 1] = cur
    elseif cur and b.t == 'Header' then
      cur.heads[#cur.heads + 1] = plain(b, cur.names)
    elseif cur then
      cur.text[#cur.text + 1] = plain(b, cur.names)
    end
  end
  local function clean(s) return (s:gsub('%[@[^%]]*%]', ''):gsub('%s+', ' ')) end
  local out = {}
  for _, r in ipairs(records) do
    out[#out + 1] = string.format('{p:%s,i:%s,t:%s,h:%s,x:%s,m:%s}', json(page), json(r.id),
      json(r.title), json(clean(table.concat(r.heads, ' / '))), json(clean(table.concat(r.text, ' '))),
      json(symbols(r.names)))
  end
  util.write_atomically(deps_file:gsub('%.d$', '') .. '.search', table.concat(out, ',\n') .. (#out > 0 and ',\n' or ''))
end

return M
