-- matter.lua -- links into the front and back matter, written the same way
-- from every chapter:
--
--   [logit](#gl-logit)        a glossary entry (book/glossary.md)
--   [notation](#fm-notation)  a place in the preface (book/preface.md)
--   [PyTorch](#ap-torch)      a place in the appendix (book/appendix.md)
--
-- In a run that includes the target file (the PDF, the EPUB, the whole-book
-- page) the link stays "#id" and pandoc resolves it; a chapter's HTML page
-- links to glossary.html or preface.html instead. An id that the file does not
-- define fails the build with the chapter file and line.
local util = require('filter.util')
local errors = require('filter.errors')
local book = require('filter.book')

local M = {}

local files = { gl = 'book/glossary.md', fm = 'book/preface.md', ap = 'book/appendix.md' }
local ids = {}   -- file -> set of ids it defines

local function defined(file)
  if ids[file] then return ids[file] end
  local set = {}
  local text = util.read_file(file) or ''
  for attr in text:gmatch('{([^}]*)}') do
    for id in attr:gmatch('#([%w%-]+)') do set[id] = true end
  end
  ids[file] = set
  return set
end

local function in_this_run(file)
  if book.WHOLE_BOOK then return true end   -- a piece of the whole book
  for _, f in ipairs(PANDOC_STATE.input_files) do
    if f == file then return true end
  end
  return false
end

function M.directive(link)
  local prefix = link.target:match('^#(%a%a)%-[%w%-]+$')
  if not prefix or not files[prefix] then return nil end
  local id, file = link.target:sub(2), files[prefix]
  if not defined(file)[id] then
    errors.fail(errors.locate('(#' .. id .. ')'), 'link to ' .. id .. ', which ' .. file .. ' does not define')
    return nil
  end
  if not in_this_run(file) then
    link.target = (file:match('([^/]+)%.md$')) .. '.html#' .. id
  end
  return link
end

return M
