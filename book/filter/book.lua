-- book.lua -- the book around the page being made: which chapters exist, which
-- chapter the walk is in now, and which program belongs to it.
--
-- Environment (set by the Makefile):
--   LITERATE_BUILD     build directory (default "build")
--   LITERATE_CHAPTERS  all chapter files in book order (for navigation, index)
--   LITERATE_PROGRAMS  the chapter programs (chNN_slug), one per chapter
local util = require('filter.util')
local deps = require('filter.deps')

local M = {}

M.BUILD = os.getenv('LITERATE_BUILD') or 'build'
M.IS_LATEX = FORMAT:match('latex') ~= nil
M.IS_HTML = FORMAT:match('html') ~= nil or FORMAT:match('epub') ~= nil
-- LITERATE_WHOLE_BOOK=1: this run makes one piece of a whole book (PDF, EPUB,
-- book.html): every chapter and the front and back matter count as on this page.
M.WHOLE_BOOK = os.getenv('LITERATE_WHOLE_BOOK') == '1'

-- The chapter files given to this pandoc run (one for an HTML page, all for the PDF).
M.chapter_files = {}
for _, f in ipairs(PANDOC_STATE.input_files) do
  if f:match('chapters/%d%d%-[^/]*%.md$') then M.chapter_files[#M.chapter_files + 1] = f end
end

-- Every chapter of the book, in order.
M.all_chapters = {}
for f in (os.getenv('LITERATE_CHAPTERS') or ''):gmatch('%S+') do
  M.all_chapters[#M.all_chapters + 1] = f
end
if #M.all_chapters == 0 then M.all_chapters = M.chapter_files end

local programs = {}
for p in (os.getenv('LITERATE_PROGRAMS') or ''):gmatch('%S+') do programs[#programs + 1] = p end

-- "chapters/03-self-attention.md" -> 3
function M.chapter_number(file)
  return tonumber((file or ''):match('(%d%d)%-[^/]*%.md$'))
end

-- 3 -> "ch03_self_attention" (the program whose name starts with ch03_)
function M.program_of(number)
  if not number then return nil end
  local prefix = string.format('ch%02d_', number)
  for _, name in ipairs(programs) do
    if name:sub(1, #prefix) == prefix then return name end
  end
  return nil
end

-- "chapters/03-self-attention.md" -> "03-self-attention.html"
function M.html_name(file)
  return (file:match('([^/]+)%.md$') or file) .. '.html'
end

-- The chapter's title: its first level-1 header, without attributes. Read from
-- BUILD/labels.tsv (book/build/labels.sh writes each chapter's title there as
-- "title:FILE", and rewrites the file only when something in it changed), so a
-- page that names its neighbours is not rebuilt when only their prose changes;
-- from the chapter itself when the table has no such line.
local titles = nil
function M.title_of(file)
  if not titles then
    titles = {}
    local path = M.BUILD .. '/labels.tsv'
    for _, line in ipairs(util.lines_of(util.read_file(path) or '')) do
      local f, t = line:match('^title:([^\t]+)\tTitle\t([^\t]+)\t')
      if f then titles[f] = t end
    end
    if next(titles) then deps.depend(path) end
  end
  if titles[file] then return titles[file] end
  local text = util.read_file(file)
  if not text then return nil end
  deps.depend(file)
  for _, line in ipairs(util.lines_of(text)) do
    local t = line:match('^#%s+(.-)%s*$')
    if t then return (t:gsub('%s*{.-}%s*$', '')) end
  end
  return nil
end

-- The current chapter while walking the document (changes at each level-1
-- header): its file, number and program, and counters the directives keep.
M.cur = { file = PANDOC_STATE.input_files[1] or '?', number = 0, program = nil,
  figures = 0, equations = 0 }

-- Enter the index-th chapter of this run.
function M.enter_chapter(index)
  local cur = M.cur
  cur.file = M.chapter_files[index] or PANDOC_STATE.input_files[1] or '?'
  cur.number = M.chapter_number(cur.file) or 0
  cur.program = M.program_of(M.chapter_number(cur.file))
  cur.figures, cur.equations = 0, 0
end

-- Enter front or back matter (an unnumbered level-1 header): no chapter, no
-- program.
function M.enter_matter()
  local cur = M.cur
  cur.number, cur.program = 0, nil
  cur.figures, cur.equations = 0, 0
end

return M
