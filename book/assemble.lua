-- assemble.lua -- the filter of a whole book's last pandoc run, over the pieces
-- book/build/assemble.py joined (each piece already went through
-- book/literate.lua on its own): only the build stamp (filter/stamp.lua), which
-- no piece carries, so that a new stamp remakes no piece.
local dir = (PANDOC_SCRIPT_FILE or 'book/assemble.lua'):match('^(.*)/[^/]*$') or '.'
package.path = dir .. '/?.lua;' .. package.path

local stamp = require('filter.stamp')

function Meta(meta)
  stamp(meta)
  return meta
end
