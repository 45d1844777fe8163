-- contents.lua -- the index page's list of chapters: a Div with id "contents"
-- becomes a list of every chapter with its level-2 sections, linked.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')

return function()
  local items = {}
  for _, file in ipairs(book.all_chapters) do
    local text = util.read_file(file)
    if text then
      deps.depend(file)
      local doc = pandoc.read(text, 'markdown')
      local title, sections = nil, {}
      for _, b in ipairs(doc.blocks) do
        if b.t == 'Header' and b.level == 1 and not title then
          title = pandoc.utils.stringify(b.content)
        elseif b.t == 'Header' and b.level == 2 then
          sections[#sections + 1] = pandoc.Plain({ pandoc.Link(b.content,
            book.html_name(file) .. '#' .. b.identifier) })
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
