-- util.lua -- reading and writing files. Every file is read once per run.
local M = {}

local cache = {}

-- The whole file as a string, or nil if it cannot be read.
function M.read_file(path)
  if cache[path] == nil then
    local f = io.open(path, 'rb')
    if not f then
      cache[path] = false
    else
      cache[path] = f:read('a')
      f:close()
    end
  end
  return cache[path] or nil
end

-- The lines of a text, without their line ends (a final empty line dropped).
function M.lines_of(text)
  local out = {}
  for line in (text .. '\n'):gmatch('(.-)\r?\n') do out[#out + 1] = line end
  if out[#out] == '' then out[#out] = nil end
  return out
end

function M.exists(path)
  local f = io.open(path, 'rb')
  if f then f:close() return true end
  return false
end

-- This process's id (pandoc's own, from /proc), or nil where there is no /proc.
local function pid()
  local f = io.open('/proc/self/stat', 'rb')
  if not f then return nil end
  local id = f:read('*l'):match('^(%d+)')
  f:close()
  return id
end

-- Write a file through a temporary name of this process's own (PATH.tmp.PID: two
-- makes at once never share it, and the next make sweeps it up after a kill), so
-- nobody sees half of it.
function M.write_atomically(path, text)
  local tmp = path .. '.tmp.' .. (pid() or 'lua')
  local f = assert(io.open(tmp, 'w'))
  f:write(text)
  f:close()
  assert(os.rename(tmp, path))
end

return M
