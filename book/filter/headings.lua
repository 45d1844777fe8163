-- headings.lua -- heading levels never skip (a level-3 header needs a level-2
-- header above it in the same chapter): screen readers navigate by them.
local errors = require('filter.errors')

local last = 0

return function(block)
  if block.t ~= 'Header' then return end
  if block.level == 1 then last = 1 return end
  if block.level > last + 1 then
    local text = pandoc.utils.stringify(block.content)
    errors.fail(errors.locate(string.rep('#', block.level) .. ' '),
      string.format("heading '%s' is level %d after level %d", text, block.level, last))
  end
  last = block.level
end
