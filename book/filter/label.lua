-- label.lua -- the small line above a listing or a program output.
-- HTML: <span class="CLASS">; LaTeX: \CLASS{text} without the dash
-- (\listinglabel, \outputlabel: see book/preamble.tex).
local book = require('filter.book')

return function(text, class)
  if book.IS_HTML then
    return pandoc.Plain({ pandoc.Span({ pandoc.Str(text) }, pandoc.Attr('', { class })) })
  elseif book.IS_LATEX then
    local esc = text:gsub('[\\{}$&#_%%~^]', function(c)
      if c == '\\' then return '\\textbackslash{}' end
      if c == '~' or c == '^' then return '\\' .. c .. '{}' end
      return '\\' .. c
    end)
    return pandoc.RawBlock('latex', '\\' .. class:gsub('%-', '') .. '{' .. esc .. '}')
  end
  return nil
end
