-- literate.lua -- splice the built artefacts into the chapters.
--
-- Directives (see CONTRIBUTING.md), one module each in book/filter/:
--   ```{.c file="lib/attention/softmax.c" snippet="softmax"}```   code.lua
--   ```{.output section="four steps"}```                          output.lua
--   [key]{.val}                                                   value.lua
--   ![Caption](figures/chNN_name.gp){#fig:name}                   figure.lua
--   [](#fig:name) [](#sec:name) [](#eq:name), from any chapter    xref.lua
--   display math, numbered per chapter; $$ ... $$ {#eq:name}      equation.lua
-- Shared plumbing: book.lua (chapters, current chapter, its program),
-- labels.lua (every figure, section and equation number in the book),
-- errors.lua (FILE:LINE: messages; anything unresolved exits non-zero),
-- deps.lua (the make dependency file), util.lua (files), label.lua.
-- Pages: contents.lua (index), navigation.lua (prev/next, download),
-- headings.lua (no skipped levels), stamp.lua (build stamp), search.lua.
--
-- LITERATE_LABELS=FILE: only collect the labels of the chapters given and
-- write them to FILE (the Makefile's BUILD/labels.tsv).
-- LITERATE_FORMAT=latex|html5 with LITERATE_WHOLE_BOOK=1: one piece of the whole
-- book (the PDF's, or the EPUB's and book.html's), written as pandoc JSON for
-- book/build/assemble.py; the run's FORMAT is then json, so the format the piece
-- is meant for is named here (book/build/piece.sh).

FORMAT = os.getenv('LITERATE_FORMAT') or FORMAT

local dir = (PANDOC_SCRIPT_FILE or 'book/literate.lua'):match('^(.*)/[^/]*$') or '.'
package.path = dir .. '/?.lua;' .. package.path

local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')
local code = require('filter.code')
local output = require('filter.output')
local value = require('filter.value')
local figure = require('filter.figure')
local labels = require('filter.labels')
local headings = require('filter.headings')
local stamp = require('filter.stamp')
local search = require('filter.search')
local xref = require('filter.xref')
local matter = require('filter.matter')
local equation = require('filter.equation')
local contents = require('filter.contents')
local navigation = require('filter.navigation')

local directives = {
  CodeBlock = function(el)
    if el.classes:includes('output') then return output.directive(el) end
    return code.directive(el)
  end,
  Span = value.directive,
  Image = figure.directive,
  Link = function(link) return matter.directive(link) or xref.directive(link) end,
  Inlines = equation.directive,
}

-- The appendix's table of PyTorch counterparts, which the build writes from
-- the reference tests (tests/reference/torch_table.py) into BUILD/torch_table.md.
local function torch_table()
  local path = (os.getenv('LITERATE_BUILD') or 'build') .. '/torch_table.md'
  local f = io.open(path, 'r')
  if not f then
    errors.fail(errors.locate('{#torch-table}'), path .. ' is missing (make ' .. path .. ')')
    return {}
  end
  local text = f:read('a')
  f:close()
  return pandoc.read(text, 'markdown').blocks
end

-- Call visit(block) for every top-level block, keeping book.cur on the
-- chapter the block belongs to (a level-1 header starts the next chapter).
local function each_block(blocks, visit)
  local chapter = 0
  book.enter_chapter(1)
  for _, block in ipairs(blocks) do
    if block.t == 'Header' and block.level == 1 then
      if block.classes:includes('unnumbered') then
        book.enter_matter()   -- preface, glossary, references: no chapter
      else
        chapter = chapter + 1
        book.enter_chapter(chapter)
      end
    end
    visit(block)
  end
end

function Pandoc(doc)
  -- Pass 1: number the figures, sections and equations, so that references
  -- may point forward and into other chapters.
  each_block(doc.blocks, labels.collect)
  local labels_out = os.getenv('LITERATE_LABELS')
  if labels_out then
    errors.finish()
    labels.write(labels_out)
    return pandoc.Pandoc({}, doc.meta)
  end
  labels.load()

  -- Pass 2: resolve every directive.
  local blocks = {}
  local has_citations = false
  -- the PDF: the preface stays front matter (a piece: only the first chapter starts the main matter)
  local main_matter = FORMAT ~= 'latex'
    or (book.WHOLE_BOOK and book.chapter_files[1] ~= nil and book.chapter_files[1] ~= book.all_chapters[1])
  each_block(doc.blocks, function(block)
    if not main_matter and block.t == 'Header' and block.level == 1
        and not block.classes:includes('unnumbered') then
      blocks[#blocks + 1] = pandoc.RawBlock('latex', '\\bookmainmatter')
      main_matter = true
    end
    headings(block)
    -- walk_block visits what is inside a block, so wrap each top-level block.
    local out
    if block.t == 'Div' and block.identifier == 'contents' then
      out = { contents() }
    elseif block.t == 'Div' and block.identifier == 'torch-table' then
      out = torch_table()
    else
      out = pandoc.walk_block(pandoc.Div({ block }), directives).content
    end
    if FORMAT == 'latex' and block.t == 'Header' and block.level == 1
        and block.classes:includes('unnumbered') then
      -- \chapter* sets no running head: the page heads would name the chapter before
      local title = pandoc.utils.stringify(block):gsub('[\\{}%%#&$_^~]', '')
      out[#out + 1] = pandoc.RawBlock('latex',
        '\\markboth{\\MakeUppercase{' .. title .. '}}{\\MakeUppercase{' .. title .. '}}')
    end
    for _, b in ipairs(out) do
      pandoc.walk_block(pandoc.Div({ b }), { Cite = function() has_citations = true end })
      blocks[#blocks + 1] = b
    end
  end)

  -- HTML chapters get their own references section; the PDF has one at the end.
  local one_chapter = book.IS_HTML and #book.chapter_files == 1 and not book.WHOLE_BOOK
  if one_chapter and has_citations then
    blocks[#blocks + 1] = pandoc.Header(2, { pandoc.Str('References') },
      pandoc.Attr('references', { 'unnumbered' }))
    blocks[#blocks + 1] = pandoc.Div({}, pandoc.Attr('refs'))
  end

  errors.finish()
  if one_chapter then
    navigation(doc.meta)
    search.write(blocks)
  end
  -- a piece has no stamp: the whole book gets it as it is assembled (book/assemble.lua)
  if not book.WHOLE_BOOK then stamp(doc.meta) end
  deps.write()
  doc.blocks = blocks
  return doc
end
