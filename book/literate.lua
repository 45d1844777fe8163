-- literate.lua -- splice the built artefacts into the chapters.
--
-- Directives (see CONTRIBUTING.md):
--   ```{.c file="lib/attention/softmax.c" snippet="softmax"}```   code cut from code/
--   ```{.output section="four steps"}```                 a section of program stdout
--   [key]{.val}                                          a number from values.tsv
--   ![Caption](figures/chNN_name.gp){#fig:name}          a gnuplot figure
--   [](#fig:name)                                        "Figure N.k"
-- Display math is numbered per chapter. Anything unresolved is reported as
-- FILE:LINE: message, and the filter exits non-zero.
--
-- Environment (set by the Makefile):
--   LITERATE_BUILD     build directory (default "build")
--   LITERATE_CHAPTERS  all chapter files in book order (for navigation, index)
--   LITERATE_PROGRAMS  the chapter programs (chNN_slug), one per chapter
--   LITERATE_TARGET    the file being made, for the dependency file
--   LITERATE_DEPS      where to write a make dependency file (optional)

local BUILD = os.getenv('LITERATE_BUILD') or 'build'
local TARGET = os.getenv('LITERATE_TARGET')
local DEPS = os.getenv('LITERATE_DEPS')
local IS_LATEX = FORMAT:match('latex') ~= nil
local IS_HTML = FORMAT:match('html') ~= nil

local errors = {}
local deps, dep_list = {}, {}
local snippet_log = {}

-- ---------------------------------------------------------------------------
-- files

local file_cache = {}

local function read_file(path)
  if file_cache[path] == nil then
    local f = io.open(path, 'rb')
    if not f then
      file_cache[path] = false
    else
      file_cache[path] = f:read('a')
      f:close()
    end
  end
  return file_cache[path] or nil
end

local function lines_of(text)
  local out = {}
  for line in (text .. '\n'):gmatch('(.-)\r?\n') do out[#out + 1] = line end
  if out[#out] == '' then out[#out] = nil end
  return out
end

local function exists(path)
  local f = io.open(path, 'rb')
  if f then f:close() return true end
  return false
end

local function depend(path)
  if not deps[path] then
    deps[path] = true
    dep_list[#dep_list + 1] = path
  end
end

-- ---------------------------------------------------------------------------
-- chapters and source positions

local chapter_files = {}
for _, f in ipairs(PANDOC_STATE.input_files) do
  if f:match('chapters/%d%d%-[^/]*%.md$') then chapter_files[#chapter_files + 1] = f end
end

local all_chapters = {}
for f in (os.getenv('LITERATE_CHAPTERS') or ''):gmatch('%S+') do
  all_chapters[#all_chapters + 1] = f
end
if #all_chapters == 0 then all_chapters = chapter_files end

-- The current chapter while walking the document (changes at each level-1 header).
local cur = { file = PANDOC_STATE.input_files[1] or '?', number = 0, program = nil }

local function chapter_number(file)
  return tonumber((file or ''):match('(%d%d)%-[^/]*%.md$'))
end

local programs = {}
for p in (os.getenv('LITERATE_PROGRAMS') or ''):gmatch('%S+') do programs[#programs + 1] = p end

local function program_of(number)
  if not number then return nil end
  local prefix = string.format('ch%02d_', number)
  for _, name in ipairs(programs) do
    if name:sub(1, #prefix) == prefix then return name end
  end
  return nil
end

-- Where in the current chapter file does a directive sit? The first line
-- containing every needle not yet reported for the same needles.
local located = {}
local function locate(...)
  local needles = { ... }
  local text = read_file(cur.file)
  if not text then return cur.file .. ':?' end
  local key = cur.file .. '\0' .. table.concat(needles, '\0')
  local skip = located[key] or 0
  local seen = 0
  for i, line in ipairs(lines_of(text)) do
    local all = true
    for _, n in ipairs(needles) do
      if not line:find(n, 1, true) then all = false break end
    end
    if all then
      seen = seen + 1
      if seen > skip then
        located[key] = seen
        return cur.file .. ':' .. i
      end
    end
  end
  return cur.file .. ':?'
end

local function fail(where, msg)
  errors[#errors + 1] = where .. ': ' .. msg
end

local function title_of(file)
  local text = read_file(file)
  if not text then return nil end
  depend(file)
  for _, line in ipairs(lines_of(text)) do
    local t = line:match('^#%s+(.-)%s*$')
    if t then return (t:gsub('%s*{.-}%s*$', '')) end
  end
  return nil
end

local function html_name(file)
  return (file:match('([^/]+)%.md$') or file) .. '.html'
end

-- ---------------------------------------------------------------------------
-- code snippets

local function is_marker(line)
  return line:match('^%s*//%s*snippet:') or line:match('^%s*//%s*end snippet%s*$')
      or line:match('^%s*//%s*BEGIN SOLUTION%s*$') or line:match('^%s*//%s*END SOLUTION%s*$')
end

-- Returns the snippet text, or nil and a reason.
local function snippet(path, name)
  local text = read_file(path)
  if not text then return nil, 'no such source file ' .. path end
  local lines = lines_of(text)
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
        return table.concat(body, '\n')
      end
    end
    if not is_marker(line) then body[#body + 1] = line end
  end
  return nil, "snippet '" .. name .. "' in " .. path .. " has no '// end snippet'"
end

-- ---------------------------------------------------------------------------
-- program output and values

local function program_output(program, section)
  local path = BUILD .. '/out/' .. program .. '.txt'
  local text = read_file(path)
  if not text then return nil, 'no output ' .. path .. ' (does program ' .. program .. ' exist?)' end
  depend(path)
  local body, inside = {}, false
  for _, line in ipairs(lines_of(text)) do
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

local values_cache = {}
local function value(program, key)
  local path = BUILD .. '/data/' .. program .. '/values.tsv'
  if values_cache[path] == nil then
    local text = read_file(path)
    local map = false
    if text then
      map = {}
      for _, line in ipairs(lines_of(text)) do
        local k, v = line:match('^([^\t]+)\t(.*)$')
        if k then map[k] = v end
      end
    end
    values_cache[path] = map
  end
  local map = values_cache[path]
  if not map then return nil, 'no values file ' .. path end
  depend(path)
  if map[key] == nil then return nil, "program " .. program .. " records no value '" .. key .. "'" end
  return map[key]
end

-- ---------------------------------------------------------------------------
-- directives

local figures = {}      -- id -> "N.k"
local fig_count, eq_count = 0, 0

local function label(text, class)
  if IS_HTML then
    return pandoc.Plain({ pandoc.Span({ pandoc.Str(text) }, pandoc.Attr('', { class })) })
  elseif IS_LATEX then
    local esc = text:gsub('[\\{}$&#_%%~^]', function(c)
      if c == '\\' then return '\\textbackslash{}' end
      if c == '~' or c == '^' then return '\\' .. c .. '{}' end
      return '\\' .. c
    end)
    return pandoc.RawBlock('latex', '\\' .. class:gsub('%-', '') .. '{' .. esc .. '}')
  end
  return nil
end

local function code_directive(el)
  local file, name = el.attributes.file, el.attributes.snippet
  if not (file or name) and not el.classes:includes('output') then return nil end
  local where
  if el.classes:includes('output') then
    local section = el.attributes.section
    local program = el.attributes.program or cur.program
    where = locate('.output', section or '')
    if el.text:match('%S') then
      fail(where, 'an output directive must have an empty body')
      return nil
    end
    if not section then fail(where, 'output directive without section=') return nil end
    if not program then fail(where, 'no program for this chapter (code/chNN_*.c)') return nil end
    local text, why = program_output(program, section)
    if not text then fail(where, why) return nil end
    local block = pandoc.CodeBlock(text, pandoc.Attr('', { 'output' }))
    if IS_LATEX then
      block = pandoc.RawBlock('latex', '\\begin{programoutput}\n' .. text .. '\n\\end{programoutput}')
    end
    return pandoc.Div({ label('$ ./' .. program .. '   # ' .. section, 'output-label'), block },
      pandoc.Attr('', { 'program-output' }))
  end
  where = locate(name or file or '', 'snippet')
  if el.text:match('%S') then fail(where, 'a snippet directive must have an empty body') return nil end
  if not (file and name) then fail(where, 'a snippet directive needs file= and snippet=') return nil end
  local path = 'code/' .. file
  local text, why = snippet(path, name)
  if not text then fail(where, why) return nil end
  depend(path)
  snippet_log[#snippet_log + 1] = where .. '\t' .. path .. '\t' .. name
  local classes = {}
  for _, c in ipairs(el.classes) do classes[#classes + 1] = c end
  local block = pandoc.CodeBlock(text, pandoc.Attr('', classes))
  return pandoc.Div({ label(path, 'listing-label'), block }, pandoc.Attr('', { 'listing' }))
end

local function val_directive(el)
  if not el.classes:includes('val') then return nil end
  local key = pandoc.utils.stringify(el.content)
  local program = el.attributes.program or cur.program
  local where = locate('[' .. key .. ']{.val')
  if not program then fail(where, 'no program for this chapter') return nil end
  local v, why = value(program, key)
  if not v then fail(where, why) return nil end
  if IS_HTML then
    return pandoc.Span({ pandoc.Str(v) },
      pandoc.Attr('', { 'val' }, { { 'title', 'computed by ' .. program } }))
  end
  return pandoc.Str(v)
end

local function figure_directive(img)
  -- a gnuplot script (.gp) or a TikZ diagram (.tex): both are drawn to .svg/.pdf
  local script = img.src:match('^(figures/[%w_%-]+)%.gp$')
    or img.src:match('^(figures/[%w_%-]+)%.tex$')
  if not script then return nil end
  local where = locate(img.src)
  local name = script:match('figures/(.*)')
  if not exists(img.src) then fail(where, 'no figure script ' .. img.src) return nil end
  local ext = IS_LATEX and 'pdf' or 'svg'
  local out = BUILD .. '/figures/' .. name .. '.' .. ext
  if not exists(out) then fail(where, 'figure ' .. out .. ' was not drawn (make figures)') return nil end
  depend(out)
  -- xelatex runs inside BUILD/tex (see the Makefile): a path relative to it
  -- keeps the PDF independent of where the build directory is.
  img.src = IS_LATEX and ('../figures/' .. name .. '.' .. ext) or out
  if IS_HTML and img.title:match('^fig:') and img.identifier ~= '' and figures[img.identifier] then
    local num = pandoc.List({ pandoc.Strong({ pandoc.Str('Figure ' .. figures[img.identifier] .. '.') }),
      pandoc.Space() })
    img.caption = num .. img.caption
  end
  return img
end

local function ref_directive(link)
  local id = link.target:match('^#(fig:[%w_%-]+)$')
  if not id or #link.content > 0 then return nil end
  if not figures[id] then
    fail(locate('(#' .. id .. ')'), 'reference to unknown figure ' .. id)
    return nil
  end
  if IS_LATEX then return pandoc.RawInline('latex', 'Figure~\\ref{' .. id .. '}') end
  link.content = { pandoc.Str('Figure'), pandoc.Space(), pandoc.Str(figures[id]) }
  return link
end

local function math_directive(m)
  if m.mathtype ~= 'DisplayMath' then return nil end
  eq_count = eq_count + 1
  if IS_LATEX then
    return pandoc.RawInline('latex', '\\begin{equation}' .. m.text .. '\\end{equation}')
  end
  local num = string.format('(%d.%d)', cur.number, eq_count)
  return pandoc.Span({ m, pandoc.Span({ pandoc.Str(num) }, pandoc.Attr('', { 'eqno' })) },
    pandoc.Attr('', { 'equation' }))
end

local directive_filter = {
  CodeBlock = code_directive,
  Span = val_directive,
  Image = figure_directive,
  Link = ref_directive,
  Math = math_directive,
}

-- ---------------------------------------------------------------------------
-- the document

local function enter_chapter(index)
  cur.file = chapter_files[index] or PANDOC_STATE.input_files[1] or '?'
  cur.number = chapter_number(cur.file) or 0
  cur.program = program_of(chapter_number(cur.file))
  fig_count, eq_count = 0, 0
end

local function write_atomically(path, text)
  local tmp = path .. '.tmp'
  local f = assert(io.open(tmp, 'w'))
  f:write(text)
  f:close()
  assert(os.rename(tmp, path))
end

local function write_deps()
  if not (DEPS and TARGET) then return end
  local out = { TARGET .. ':' }
  for _, d in ipairs(dep_list) do out[#out + 1] = ' \\\n  ' .. d end
  out[#out + 1] = '\n'
  for _, d in ipairs(dep_list) do
    if d:match('^code/') or d:match('^chapters/') then out[#out + 1] = d .. ':\n' end
  end
  write_atomically(DEPS, table.concat(out))
  write_atomically(DEPS:gsub('%.d$', '') .. '.snippets', table.concat(snippet_log, '\n') .. '\n')
end

-- The index page: a Div with id "contents" becomes the list of chapters.
local function contents_list()
  local items = {}
  for _, file in ipairs(all_chapters) do
    local text = read_file(file)
    if text then
      depend(file)
      local doc = pandoc.read(text, 'markdown')
      local title, sections = nil, {}
      for _, b in ipairs(doc.blocks) do
        if b.t == 'Header' and b.level == 1 and not title then
          title = pandoc.utils.stringify(b.content)
        elseif b.t == 'Header' and b.level == 2 then
          sections[#sections + 1] = pandoc.Plain({ pandoc.Link(b.content,
            html_name(file) .. '#' .. b.identifier) })
        end
      end
      local n = chapter_number(file)
      local head = pandoc.Plain({ pandoc.Link({ pandoc.Str(string.format('%d. %s', n, title or file)) },
        html_name(file)) })
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

function Pandoc(doc)
  -- Pass 1: number the figures, chapter by chapter.
  local chapter = 0
  enter_chapter(1)
  for _, block in ipairs(doc.blocks) do
    if block.t == 'Header' and block.level == 1 then
      chapter = chapter + 1
      enter_chapter(chapter)
    end
    pandoc.walk_block(pandoc.Div({ block }), { Image = function(img)
      if img.title:match('^fig:') then
        fig_count = fig_count + 1
        if img.identifier ~= '' then
          if figures[img.identifier] then
            fail(locate(img.identifier), 'figure id ' .. img.identifier .. ' used twice')
          end
          figures[img.identifier] = string.format('%d.%d', cur.number, fig_count)
        end
      end
    end })
  end

  -- Pass 2: resolve every directive.
  local blocks = {}
  local has_citations = false
  chapter = 0
  enter_chapter(1)
  for _, block in ipairs(doc.blocks) do
    if block.t == 'Header' and block.level == 1 then
      chapter = chapter + 1
      enter_chapter(chapter)
    end
    -- walk_block visits what is inside a block, so wrap each top-level block.
    local out
    if block.t == 'Div' and block.identifier == 'contents' then
      out = { contents_list() }
    else
      out = pandoc.walk_block(pandoc.Div({ block }), directive_filter).content
    end
    for _, b in ipairs(out) do
      pandoc.walk_block(pandoc.Div({ b }), { Cite = function() has_citations = true end })
      blocks[#blocks + 1] = b
    end
  end

  -- HTML chapters get their own references section; the PDF has one at the end.
  if IS_HTML and has_citations and #chapter_files == 1 then
    blocks[#blocks + 1] = pandoc.Header(2, { pandoc.Str('References') },
      pandoc.Attr('references', { 'unnumbered' }))
    blocks[#blocks + 1] = pandoc.Div({}, pandoc.Attr('refs'))
  end

  if #errors > 0 then
    for _, e in ipairs(errors) do io.stderr:write(e, '\n') end
    io.stderr:write(string.format('literate.lua: %d unresolved directive(s)\n', #errors))
    os.exit(1)
  end

  -- Navigation for one-page-per-chapter HTML.
  if IS_HTML and #chapter_files == 1 then
    local me = chapter_files[1]
    for i, f in ipairs(all_chapters) do
      if f == me then
        local prev, nxt = all_chapters[i - 1], all_chapters[i + 1]
        if prev then
          doc.meta['prev-href'] = html_name(prev)
          doc.meta['prev-title'] = title_of(prev) or prev
        end
        if nxt then
          doc.meta['next-href'] = html_name(nxt)
          doc.meta['next-title'] = title_of(nxt) or nxt
        end
      end
    end
    doc.meta['chapter-number'] = tostring(cur.number)
  end

  write_deps()
  doc.blocks = blocks
  return doc
end
