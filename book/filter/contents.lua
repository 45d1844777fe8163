-- contents.lua -- the index page's list of chapters: a Div with id "contents"
-- becomes a list of every chapter with its level-2 sections, linked.
-- The headers come from BUILD/contents.tsv ("contents:" rows of labels.lua, which
-- book/build/labels.sh rewrites only when a level-1 or level-2 header changed), so that an edit to
-- a chapter's prose does not remake the index; from the chapter itself when the
-- table has no rows for it.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')

-- file -> list of { level = 1|2, id = ..., content = inlines } from contents.tsv
local function from_labels()
  local path = book.BUILD .. '/contents.tsv'
  local text = util.read_file(path)
  local out = {}
  if not text then return out end
  for _, line in ipairs(util.lines_of(text)) do
    local level, file, id, json =
      line:match('^contents:[^\t]*\tContents\t(%d)\t([^\t]+)\t([^\t]*)\t([^\t]+)$')
    if level then
      deps.depend(path)
      out[file] = out[file] or {}
      local inlines = pandoc.read(json, 'json').blocks[1].content
      table.insert(out[file], { level = tonumber(level), id = id, content = inlines })
    end
  end
  return out
end

-- the same list, read from the chapter file itself
local function from_file(file)
  local text = util.read_file(file)
  if not text then return nil end
  deps.depend(file)
  local out = {}
  for _, b in ipairs(pandoc.read(text, 'markdown').blocks) do
    if b.t == 'Header' and b.level <= 2 then
      out[#out + 1] = { level = b.level, id = b.identifier, content = b.content }
    end
  end
  return out
end

return function()
  local items = {}
  local labelled = from_labels()
  for _, file in ipairs(book.all_chapters) do
    local heads = labelled[file] or from_file(file)
    if heads then
      local title, sections = nil, {}
      for _, h in ipairs(heads) do
        if h.level == 1 and not title then
          title = pandoc.utils.stringify(h.content)
        elseif h.level == 2 then
          sections[#sections + 1] = pandoc.Plain({ pandoc.Link(h.content,
            book.html_name(file) .. '#' .. h.id) })
        end
      end
      local n = book.chapter_number(file)
      local head = pandoc.Plain({ pandoc.Link({ pandoc.Str(string.format('%d. %s', n, title or file)) },
        book.html_name(file)) })
      local item = { head }
      if #sections > 0 then
        local subs = {}
        for _, s in ipairs(sections) do subs[#subs + 1] = { s } end
        item[#item + 1] = pandoc.BulletList(subs)
      end
      items[#items + 1] = item
    end
  end
  return pandoc.Div({ pandoc.BulletList(items) }, pandoc.Attr('contents', { 'book-contents' }))
end
