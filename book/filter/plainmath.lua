-- plainmath.lua -- TeX maths as plain text a reader can read in a search
-- result: \frac{a}{b} -> a/b, \sqrt{d_k} -> √d_k, \alpha -> α, \mathbf{x} -> x,
-- \cdot -> ·, K^\top -> Kᵀ, x^2 -> x², e^{x_i} -> e^(x_i), \left( -> (.
-- Knows the commands the book's maths uses; any other command is written as
-- its name, never with its backslash. search.lua indexes the text, and the
-- names of the commands apart (sqrt, alpha, partial...), so that a formula is
-- still found by the name a reader types. Tests: tests/plainmath.lua (book group).
local M = {}

local greek = {
  alpha = 'α', beta = 'β', gamma = 'γ', delta = 'δ', epsilon = 'ε', varepsilon = 'ε',
  zeta = 'ζ', eta = 'η', theta = 'θ', vartheta = 'θ', iota = 'ι', kappa = 'κ',
  lambda = 'λ', mu = 'μ', nu = 'ν', xi = 'ξ', pi = 'π', rho = 'ρ', sigma = 'σ',
  tau = 'τ', upsilon = 'υ', phi = 'φ', varphi = 'φ', chi = 'χ', psi = 'ψ', omega = 'ω',
  Gamma = 'Γ', Delta = 'Δ', Theta = 'Θ', Lambda = 'Λ', Xi = 'Ξ', Pi = 'Π',
  Sigma = 'Σ', Phi = 'Φ', Psi = 'Ψ', Omega = 'Ω', ell = 'ℓ',
}
-- operators and relations, written with a space on each side
local binary = {
  cdot = '·', times = '×', ['in'] = '∈', notin = '∉', le = '≤', leq = '≤', ge = '≥',
  geq = '≥', ne = '≠', neq = '≠', to = '→', rightarrow = '→', leftarrow = '←',
  leftrightarrow = '↔', Rightarrow = '⇒', Leftarrow = '⇐', mapsto = '↦', approx = '≈',
  pm = '±', mp = '∓', odot = '⊙', otimes = '⊗', oplus = '⊕', propto = '∝', lor = '∨',
  land = '∧', mid = '|', circ = '∘', sim = '∼', equiv = '≡', ll = '≪', gg = '≫',
  subset = '⊂', subseteq = '⊆', cup = '∪', cap = '∩', div = '÷', ast = '∗',
}
-- symbols written as they stand
local symbol = {
  infty = '∞', partial = '∂', sum = '∑', prod = '∏', int = '∫', nabla = '∇',
  ldots = '…', dots = '…', cdots = '⋯', vdots = '⋮', lVert = '‖', rVert = '‖',
  Vert = '‖', lvert = '|', rvert = '|', vert = '|', lceil = '⌈', rceil = '⌉',
  lfloor = '⌊', rfloor = '⌋', langle = '⟨', rangle = '⟩', forall = '∀', exists = '∃',
  top = 'ᵀ', prime = "'", emptyset = '∅', neg = '¬', lbrace = '{', rbrace = '}',
}
-- symbols that take no space after them, and closing ones none before them
local opener = { partial = true, nabla = true, lVert = true, lvert = true, lceil = true,
  lfloor = true, langle = true, neg = true }
local closer = { rVert = true, rvert = true, rceil = true, rfloor = true, rangle = true }
-- functions named in upright letters
local func = {
  exp = true, ln = true, log = true, sin = true, cos = true, tan = true, tanh = true,
  sinh = true, cosh = true, max = true, min = true, arg = true, argmax = true,
  argmin = true, det = true, lim = true, sup = true, inf = true, dim = true, deg = true,
}
-- a font or a class around one argument: its argument, as it is
local font = {
  mathrm = true, text = true, textrm = true, textit = true, textbf = true,
  mathit = true, mathbf = true, mathsf = true, mathtt = true, mathcal = true,
  boldsymbol = true, bm = true, operatorname = true, mbox = true, hbox = true,
  mathrel = true, mathbin = true, mathop = true, mathord = true, textsf = true,
  texttt = true, emph = true, mathnormal = true,
}
local blackboard = { R = 'ℝ', E = '𝔼', N = 'ℕ', Z = 'ℤ', Q = 'ℚ', C = 'ℂ', P = 'ℙ' }
-- sizes and layout: nothing
local drop = {
  left = true, right = true, middle = true, big = true, Big = true, bigg = true,
  Bigg = true, bigl = true, bigr = true, Bigl = true, Bigr = true, biggl = true,
  biggr = true, Biggl = true, Biggr = true, displaystyle = true, textstyle = true,
  scriptstyle = true, limits = true, nolimits = true, nonumber = true, notag = true,
}
local space = { quad = ' ', qquad = ' ', [','] = ' ', [':'] = ' ', [';'] = ' ', [' '] = ' ',
  ['!'] = '', enspace = ' ', thinspace = ' ' }
-- accents: a combining mark after the letter
local accent = { hat = '\u{302}', widehat = '\u{302}', tilde = '\u{303}',
  widetilde = '\u{303}', bar = '\u{304}', overline = '\u{304}', vec = '\u{20D7}',
  overrightarrow = '\u{20D7}', overleftarrow = '\u{20D6}', dot = '\u{307}',
  ddot = '\u{308}' }
local super = {
  ['0'] = '⁰', ['1'] = '¹', ['2'] = '²', ['3'] = '³', ['4'] = '⁴', ['5'] = '⁵',
  ['6'] = '⁶', ['7'] = '⁷', ['8'] = '⁸', ['9'] = '⁹', ['+'] = '⁺', ['-'] = '⁻',
  ['='] = '⁼', ['('] = '⁽', [')'] = '⁾', i = 'ⁱ', n = 'ⁿ', T = 'ᵀ', ['ᵀ'] = 'ᵀ',
  ["'"] = "'",
}
local environment = { pmatrix = { '(', ')' }, bmatrix = { '[', ']' }, vmatrix = { '|', '|' },
  Bmatrix = { '{', '}' } }
-- layout commands whose names say nothing of the formula
local quiet = {
  begin = true, ['end'] = true, frac = true, dfrac = true, tfrac = true, mathrel = true,
  mathbin = true, mathop = true, mathord = true, operatorname = true,
}
for name in pairs(font) do quiet[name] = true end
for name in pairs(drop) do quiet[name] = true end
for name in pairs(space) do quiet[name] = true end
quiet.mathbb = true
-- and names that are everyday words or say little (a query "top" or "in" is
-- about the prose, not about Kᵀ or x ∈ S)
for _, name in ipairs({ 'top', 'in', 'to', 'mid', 'le', 'ge', 'ne', 'neq', 'leq', 'geq',
  'll', 'gg', 'sim', 'circ', 'dots', 'ldots', 'cdots', 'vdots', 'vert', 'prime', 'lvert',
  'rvert', 'lVert', 'rVert', 'Vert', 'lceil', 'rceil', 'lfloor', 'rfloor', 'langle',
  'rangle', 'lbrace', 'rbrace', 'ast' }) do quiet[name] = true end

-- A piece is a term when it holds no space or operator outside parentheses:
-- d_k, exp(s_j), 2h² are terms; a + b, -x, i-1 are not.
local function is_term(s)
  local bare = s
  repeat
    local before = bare
    bare = bare:gsub('%b()', '')
  until bare == before
  return s ~= '' and not bare:find('[%s%+%-=,/<>|;:]') and not bare:find('·')
    and not bare:find('×') and not bare:find('≤') and not bare:find('≥')
    and not bare:find('→') and not bare:find('∑')
end
local function wrapped(s)
  if is_term(s) then return s end
  return '(' .. s .. ')'
end

-- the characters of a UTF-8 string
local function chars(s)
  local out = {}
  for c in s:gmatch('[%z\1-\127\194-\244][\128-\191]*') do out[#out + 1] = c end
  return out
end

local function superscript(s)
  if s == 'ᵀ' then return s end
  local out = {}
  for _, c in ipairs(chars(s)) do
    if not super[c] then
      if s:find('[_^]') then return '^(' .. s .. ')' end
      return '^' .. wrapped(s)
    end
    out[#out + 1] = super[c]
  end
  return table.concat(out)
end

local function subscript(s)
  if is_term(s) and not s:find('[_^]') then return '_' .. s end
  return '_(' .. s .. ')'
end

-- the mark on the first letter: \overline{g^2} -> ḡ²
local function with_accent(s, mark)
  local first = s:match('^[%z\1-\127\194-\244][\128-\191]*')
  if not first then return s end
  return first .. mark .. s:sub(#first + 1)
end

-- Parser: tex, position -> text, position. `names` collects the commands seen.
local parse_until, argument
local matrix = 0      -- how many matrix environments the parser is inside

local function skip_spaces(tex, i)
  return tex:match('^%s*()', i)
end

-- one argument: a {group}, a command, or one character
function argument(tex, i, names)
  i = skip_spaces(tex, i)
  local c = tex:sub(i, i)
  if c == '{' then
    return parse_until(tex, i + 1, '}', names)
  elseif c == '\\' then
    return parse_until(tex, i, nil, names, true)
  elseif c == '' then
    return '', i
  end
  local ch = tex:match('^[%z\1-\127\194-\244][\128-\191]*', i)
  return ch, i + #ch
end

-- Does the text that follows a function's name start with its argument in
-- brackets, or with a sub- or superscript (then no space after the name)?
local function tight(tex, i)
  return tex:find('^%s*[%(%[_%^]', i) or tex:find('^%s*\\left', i)
    or tex:find('^%s*\\!', i) or tex:find('^%s*\\[bB]ig', i)
end

-- Parse from i until the closing `stop` (or the end); with `one`, parse one
-- command only. Returns the text and the position after it.
function parse_until(tex, i, stop, names, one)
  local out = {}
  local n = #tex
  while i <= n do
    local c = tex:sub(i, i)
    if stop and c == stop then return table.concat(out), i + 1 end
    if c == '\\' then
      local name = tex:match('^\\(%a+)', i)
      local piece
      if not name then
        name = tex:sub(i + 1, i + 1)
        i = i + 2
        if space[name] then piece = space[name]
        elseif name == '\\' then
          piece = '; '
          i = tex:match('^%s*%[[^%]]*%]()', i) or i    -- \\[2pt]
        elseif name == '|' then piece = '‖'
        else piece = name end                            -- \{ \} \_ \% \# \$ \&
      else
        i = i + 1 + #name
        names[#names + 1] = name
        local after_word = skip_spaces(tex, i)
        -- TeX drops the spaces after a command's name; they are kept here,
        -- where they part words as the source's author spaced them
        if greek[name] then piece = greek[name]
        elseif binary[name] then piece = ' ' .. binary[name] .. ' '; i = after_word
        elseif symbol[name] then
          piece = symbol[name]
          if opener[name] then i = after_word end         -- \partial L -> ∂L
          if closer[name] then                              -- q \rVert -> q‖
            while #out > 0 and out[#out]:find('^%s*$') do out[#out] = nil end
            if #out > 0 then out[#out] = out[#out]:gsub('%s+$', '') end
          end
        elseif space[name] then piece = space[name]; i = after_word
        elseif func[name] then
          piece = name .. (tight(tex, i) and '' or ' ')
          i = after_word
        elseif drop[name] then
          i = after_word
          if name == 'left' or name == 'right' or name == 'middle' then
            local d = tex:sub(i, i)
            if d == '.' then i = i + 1
            elseif d == '\\' and tex:find('^\\[{}]', i) then
              piece = tex:sub(i + 1, i + 1); i = i + 2
            end
          end
          piece = piece or ''
        elseif font[name] then
          piece, i = argument(tex, i, names)
        elseif name == 'mathbb' then
          local a
          a, i = argument(tex, i, names)
          piece = blackboard[a] or a
        elseif name == 'frac' or name == 'dfrac' or name == 'tfrac' then
          local a, b
          a, i = argument(tex, i, names)
          b, i = argument(tex, i, names)
          piece = wrapped(a) .. '/' .. wrapped(b)
        elseif name == 'sqrt' then
          local root = ''
          local k = skip_spaces(tex, i)
          if tex:sub(k, k) == '[' then
            root, i = parse_until(tex, k + 1, ']', names)
            root = superscript(root)
            if root:sub(1, 1) == '^' then root = root:sub(2) end
          end
          local a
          a, i = argument(tex, i, names)
          piece = root .. '√' .. wrapped(a)
        elseif accent[name] then
          local a
          a, i = argument(tex, i, names)
          piece = with_accent(a, accent[name])
        elseif name == 'begin' or name == 'end' then
          local env
          env, i = argument(tex, i, {})
          local marks = environment[env]
          piece = marks and (name == 'begin' and marks[1] or marks[2]) or ' '
          if marks then matrix = matrix + (name == 'begin' and 1 or -1) end
          if name == 'begin' and env == 'array' then
            local _
            _, i = argument(tex, i, {})                 -- the column spec
          end
        else
          piece = name                                   -- unknown: its name
          if tex:find('^{', i) then piece = piece .. ' ' end  -- \foo{x} -> foo x
        end
      end
      out[#out + 1] = piece
      if one then return table.concat(out), i end
    elseif c == '{' then
      local g
      g, i = parse_until(tex, i + 1, '}', names)
      out[#out + 1] = g
    elseif c == '^' or c == '_' then
      local a
      a, i = argument(tex, i + 1, names)
      out[#out + 1] = c == '^' and superscript(a) or subscript(a)
    elseif c == '&' then
      out[#out + 1] = matrix > 0 and ', ' or ' '         -- a matrix's columns
      i = i + 1
    elseif c == '~' then
      out[#out + 1] = ' '
      i = i + 1
    elseif c:find('%s') then
      out[#out + 1] = ' '
      i = skip_spaces(tex, i)
    else
      out[#out + 1] = c
      i = i + 1
    end
  end
  return table.concat(out), i
end

local function tidy(s)
  s = s:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')
  s = s:gsub('%( ', '('):gsub(' %)', ')'):gsub(' ([,.;])', '%1'):gsub(';$', '')
  s = s:gsub('([%w%)²])∑', '%1 ∑'):gsub('([%w%)²])∏', '%1 ∏')
  return s
end

-- The symbol a command's name stands for in the plain text (alpha -> α,
-- sqrt -> √), or nil: the search marks it in a snippet when the name matched.
function M.symbol(name)
  if name == 'sqrt' then return '√' end
  local s = greek[name] or binary[name] or symbol[name]
  if s and s ~= "'" and s ~= '{' and s ~= '}' then return s end
  return nil
end

-- The plain text of TeX maths, and the names of the commands it uses that say
-- something of the formula (sqrt, alpha, partial; not frac, left, mathrm),
-- each once, in order.
function M.convert(tex)
  local names = {}
  matrix = 0
  local text = parse_until(tex, 1, nil, names)
  local seen, said = {}, {}
  for _, name in ipairs(names) do
    if not quiet[name] and not seen[name] and #name > 1 then
      seen[name] = true
      said[#said + 1] = name
    end
  end
  return tidy(text), said
end

return M
