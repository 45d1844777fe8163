-- code.lua -- the code directive: a listing cut from a compiled source.
--
--   ```{.c file="lib/attention/softmax.c" snippet="softmax"}
--   ```
--
-- In code/FILE the snippet is the text between "// snippet: NAME" and its
-- "// end snippet", common indentation removed. Nested snippet markers and
-- exercise solution markers (// BEGIN SOLUTION, // END SOLUTION) are left out.
-- The label above the listing names the file and what the cut declares (or the
-- function it is cut from), derived from the cut itself.
local util = require('filter.util')
local deps = require('filter.deps')
local errors = require('filter.errors')
local label = require('filter.label')

local M = {}

local function is_marker(line)
  return line:match('^%s*//%s*snippet:') or line:match('^%s*//%s*end snippet%s*$')
      or line:match('^%s*//%s*BEGIN SOLUTION%s*$') or line:match('^%s*//%s*END SOLUTION%s*$')
end

-- The function a C line starts the definition of ("static int f(int x) {" -> f),
-- or nil: the line starts in column 0 with a type and has "name(".
local not_functions = { ['if'] = true, ['for'] = true, ['while'] = true, ['switch'] = true,
  ['return'] = true, ['sizeof'] = true }
local function defines(line)
  if line:match('^[%s#/{}]') or line:match(';%s*$') or line:match('^typedef') then return nil end
  local name = line:match('^[%a_][%w_%s%*]-[%s%*]([%a_][%w_]*)%s*%(')
  if name and not not_functions[name] then return name end
  return nil
end

-- What a line in column 0 declares, as the label names it: "f()" for a
-- function (definition or prototype), the type's name for a typedef (for
-- "typedef struct {" the name after the closing brace, found from line i on),
-- "struct s" / "enum e", a macro's name, a variable's name; nil for anything else.
local function declares(lines, i)
  local line = lines[i]
  if line:match('^%s') or line:match('^//') or line:match('^/%*') then return nil end
  local macro = line:match('^#%s*define%s+([%a_][%w_]*)')
  if macro then return macro end
  if line:match('^#') or line:match('^[{}]') then return nil end
  if line:match('^typedef') then
    if line:match('{%s*$') or line:match('^typedef%s+[%w_]+%s+[%w_]*%s*$') then
      for k = i, #lines do
        local t = lines[k]:match('^}%s*([%a_][%w_]*)%s*;')
        if t then return t end
      end
      return nil
    end
    return line:match('%(%s*%*%s*([%a_][%w_]*)%s*%)') or line:match('([%a_][%w_]*)%s*;%s*$')
  end
  local tag = line:match('^((struct|union|enum)%s+[%a_][%w_]*)%s*{')
  if tag then return tag end
  tag = line:match('^(struct%s+[%a_][%w_]*)%s*;') or line:match('^(enum%s+[%a_][%w_]*)%s*{')
  if tag then return tag end
  local fn = line:match('^[%a_][%w_%s%*]-[%s%*]([%a_][%w_]*)%s*%(')
  if fn and not not_functions[fn] then return fn .. '()' end
  return line:match('^[%a_][%w_%s%*]-[%s%*]([%a_][%w_]*)%s*[%[=;]')
end

-- The braces a line opens minus those it closes, outside comments, strings and
-- character constants; in_comment says whether a /* comment runs on.
local function brace_delta(line, in_comment)
  local d, i, n = 0, 1, #line
  while i <= n do
    local c, two = line:sub(i, i), line:sub(i, i + 1)
    if in_comment then
      if two == '*/' then in_comment = false; i = i + 1 end
    elseif two == '//' then break
    elseif two == '/*' then in_comment = true; i = i + 1
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n and line:sub(j, j) ~= c do
        if line:sub(j, j) == '\\' then j = j + 1 end
        j = j + 1
      end
      i = j
    elseif c == '{' then d = d + 1
    elseif c == '}' then d = d - 1 end
    i = i + 1
  end
  return d, in_comment
end

-- What is a snippet from? If it starts inside a function's body, that
-- function; else the first thing it declares (function, type, macro,
-- variable); else nil. The label is derived from the cut, so it cannot name
-- something the listing does not show.
local function function_of(lines, start, stop)
  local depth, in_comment, last_fn = 0, false, nil
  for i = 1, start - 1 do
    if depth == 0 then
      local name = defines(lines[i])
      if name then last_fn = name end
    end
    local d
    d, in_comment = brace_delta(lines[i], in_comment)
    depth = depth + d
  end
  if depth > 0 then return last_fn and (last_fn .. '()') or nil end
  for i = start + 1, stop - 1 do
    local name = declares(lines, i)
    if name then return name end
  end
  return nil
end

-- Returns the snippet text and the function it is from (or nil), or nil and
-- a reason.
function M.snippet(path, name)
  local text = util.read_file(path)
  if not text then return nil, 'no such source file ' .. path end
  local lines = util.lines_of(text)
  local start, count = nil, 0
  for i, line in ipairs(lines) do
    local n = line:match('^%s*//%s*snippet:%s*([%w_%-%.]+)%s*$')
    if n == name then
      count = count + 1
      start = start or i
    end
  end
  if count == 0 then return nil, "no snippet '" .. name .. "' in " .. path end
  if count > 1 then return nil, "snippet '" .. name .. "' is marked twice in " .. path end
  local body, depth = {}, 1
  for i = start + 1, #lines do
    local line = lines[i]
    if line:match('^%s*//%s*snippet:') then
      depth = depth + 1
    elseif line:match('^%s*//%s*end snippet%s*$') then
      depth = depth - 1
      if depth == 0 then
        -- Drop common indentation, keep everything else verbatim.
        local indent
        for _, l in ipairs(body) do
          if l:match('%S') then
            local w = #l:match('^ *')
            indent = indent and math.min(indent, w) or w
          end
        end
        indent = indent or 0
        for k, l in ipairs(body) do body[k] = l:sub(indent + 1) end
        while body[1] == '' do table.remove(body, 1) end
        while body[#body] == '' do table.remove(body) end
        if #body == 0 then return nil, "snippet '" .. name .. "' in " .. path .. ' is empty' end
        return table.concat(body, '\n'), function_of(lines, start, i)
      end
    end
    if not is_marker(line) then body[#body + 1] = line end
  end
  return nil, "snippet '" .. name .. "' in " .. path .. " has no '// end snippet'"
end

-- CodeBlock with file= or snippet=: a Div.listing with a label and the code.
-- Other code blocks are left alone (nil).
function M.directive(el)
  local file, name = el.attributes.file, el.attributes.snippet
  if not (file or name) then return nil end
  local where = errors.locate(name or file or '', 'snippet')
  if el.text:match('%S') then errors.fail(where, 'a snippet directive must have an empty body') return nil end
  if not (file and name) then errors.fail(where, 'a snippet directive needs file= and snippet=') return nil end
  local path = 'code/' .. file
  local text, fn = M.snippet(path, name)
  if not text then errors.fail(where, fn) return nil end
  deps.depend(path)
  deps.log_snippet(where, path, name)
  local classes = {}
  for _, c in ipairs(el.classes) do classes[#classes + 1] = c end
  local block = pandoc.CodeBlock(text, pandoc.Attr('', classes))
  -- The label says where the listing is from: file and what it declares.
  local where_from = fn and (path .. ' · ' .. fn) or path
  return pandoc.Div({ label(where_from, 'listing-label'), block }, pandoc.Attr('', { 'listing' }))
end

return M
