-- labels.lua -- every label of the book, so that a reference resolves from any
-- chapter, the same way in HTML, PDF and EPUB:
--
--   ## Title {#sec:name}          Section N.k   (a level-1 header: Chapter N)
--   ![Caption](...gp){#fig:name}  Figure N.k
--   $$ ... $$ {#eq:name}          Equation N.k
--
-- Numbers count per chapter: sections as pandoc numbers them, every figure
-- with a caption, every display equation. Ids are unique in the whole book.
--
-- A page is made from one chapter, so the other chapters' labels come from
-- BUILD/labels.tsv, which the Makefile writes by running this filter over all
-- chapters with LITERATE_LABELS=FILE (see write()). The chapters of the
-- current run are always collected fresh from the document itself.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')

local M = {}

M.entries = {}   -- id -> { kind = 'Figure', number = '2.1', file = 'chapters/02-...md' }
local order = {}
-- The chapters' level-1 and level-2 headers, for the index page (contents.lua):
-- written to labels.tsv too, so that the index is remade only when one changes.
local contents = {}

local function add(id, kind, number)
  local old = M.entries[id]
  if old then
    errors.fail(errors.locate(id), kind:lower() .. ' id ' .. id .. ' used twice'
      .. (old.file ~= book.cur.file and (' (also in ' .. old.file .. ')') or ''))
    return
  end
  order[#order + 1] = id
  M.entries[id] = { kind = kind, number = number, file = book.cur.file }
end

-- The label of an equation: a Str "{#eq:name}" right after display math.
function M.equation_label(inlines, i)
  local j = i + 1
  if inlines[j] and inlines[j].t == 'Space' then j = j + 1 end
  local s = inlines[j]
  local id = s and s.t == 'Str' and s.text:match('^{#(eq:[%w_%-]+)}$')
  if id then return id, j end
  return nil
end

-- Pass 1 over one top-level block of the current chapter (book.cur).
local section = {}
function M.collect(block)
  local cur = book.cur
  if block.t == 'Header' then
    if block.level == 1 then section = {} end
    if block.level <= 2 then
      contents[#contents + 1] = table.concat({ 'contents:' .. cur.file .. ':' .. (#contents + 1),
        'Contents', tostring(block.level), cur.file, block.identifier,
        pandoc.write(pandoc.Pandoc({ pandoc.Plain(block.content) }), 'json') }, '\t')
    end
    if not block.classes:includes('unnumbered') then
      section[block.level] = (section[block.level] or 0) + 1
      for l = block.level + 1, 6 do section[l] = nil end
      local parts = { tostring(cur.number) }
      for l = 2, block.level do parts[#parts + 1] = tostring(section[l] or 0) end
      if block.identifier:match('^sec:') then
        add(block.identifier, block.level == 1 and 'Chapter' or 'Section', table.concat(parts, '.'))
      end
    end
  end
  pandoc.walk_block(pandoc.Div({ block }), {
    Image = function(img)
      if not img.title:match('^fig:') then return end
      cur.figures = cur.figures + 1
      if img.identifier ~= '' then
        add(img.identifier, 'Figure', string.format('%d.%d', cur.number, cur.figures))
      end
    end,
    Inlines = function(inlines)
      for i, el in ipairs(inlines) do
        if el.t == 'Math' and el.mathtype == 'DisplayMath' then
          cur.equations = cur.equations + 1
          local id = M.equation_label(inlines, i)
          if id then add(id, 'Equation', string.format('%d.%d', cur.number, cur.equations)) end
        end
      end
    end,
  })
end

-- After pass 1: the other chapters' labels, from BUILD/labels.tsv (if made).
function M.load()
  local path = book.BUILD .. '/labels.tsv'
  local text = util.read_file(path)
  if not text then return end
  deps.depend(path)
  local mine = {}
  for _, f in ipairs(book.chapter_files) do mine[f] = true end
  for _, line in ipairs(util.lines_of(text)) do
    local id, kind, number, file = line:match('^([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)$')
    if id and kind ~= 'Title' and not mine[file] and not M.entries[id] then
      order[#order + 1] = id
      M.entries[id] = { kind = kind, number = number, file = file }
    end
  end
end

-- LITERATE_LABELS=FILE: write every label collected as id, kind, number, file;
-- then each level-1 and level-2 header as "contents:FILE:K", Contents, level,
-- file, identifier, the header's text as pandoc JSON (read by contents.lua).
function M.write(path)
  local out = {}
  for _, id in ipairs(order) do
    local e = M.entries[id]
    out[#out + 1] = table.concat({ id, e.kind, e.number, e.file }, '\t')
  end
  for _, row in ipairs(contents) do out[#out + 1] = row end
  util.write_atomically(path, table.concat(out, '\n') .. '\n')
end

return M
