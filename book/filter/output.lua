-- output.lua -- the output directive: one section of a program's stdout.
--
--   ```{.output section="four steps"}
--   ```
--
-- The program (the chapter's own unless program= says otherwise) printed
-- "== four steps ==" into BUILD/out/PROGRAM.txt; the section runs to the next
-- "== ... ==" line. Blank lines around it are dropped.
local util = require('filter.util')
local book = require('filter.book')
local deps = require('filter.deps')
local errors = require('filter.errors')
local label = require('filter.label')

local M = {}

-- Returns the section's text, or nil and a reason.
function M.section(program, section)
  local path = book.BUILD .. '/out/' .. program .. '.txt'
  local text = util.read_file(path)
  if not text then return nil, 'no output ' .. path .. ' (does program ' .. program .. ' exist?)' end
  deps.depend(path)
  local body, inside = {}, false
  for _, line in ipairs(util.lines_of(text)) do
    local title = line:match('^== (.-) ==$')
    if title then
      if inside then break end
      inside = (title == section)
    elseif inside then
      body[#body + 1] = line
    end
  end
  if not inside then return nil, "program " .. program .. " prints no section '" .. section .. "'" end
  while body[1] == '' do table.remove(body, 1) end
  while body[#body] == '' do table.remove(body) end
  return table.concat(body, '\n')
end

-- CodeBlock with class .output: a Div.program-output with a label and the text.
function M.directive(el)
  local section = el.attributes.section
  local program = el.attributes.program or book.cur.program
  local where = errors.locate('.output', section or '')
  if el.text:match('%S') then
    errors.fail(where, 'an output directive must have an empty body')
    return nil
  end
  if not section then errors.fail(where, 'output directive without section=') return nil end
  if not program then errors.fail(where, 'no program for this chapter (code/chNN_*.c)') return nil end
  local text, why = M.section(program, section)
  if not text then errors.fail(where, why) return nil end
  local block = pandoc.CodeBlock(text, pandoc.Attr('', { 'output' }))
  if book.IS_LATEX then
    block = pandoc.RawBlock('latex', '\\begin{programoutput}\n' .. text .. '\n\\end{programoutput}')
  end
  return pandoc.Div({ label('$ ./' .. program .. '   # ' .. section, 'output-label'), block },
    pandoc.Attr('', { 'program-output' }))
end

return M
