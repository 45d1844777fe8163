-- plainmath.lua -- tests of book/filter/plainmath.lua (TeX maths as the plain
-- text of the search index), run by tests/book.sh as a pandoc filter:
--   pandoc -f markdown -t plain --lua-filter tests/plainmath.lua < /dev/null
-- Prints one line per failure ("FAIL ..."), then "cases N, formulas M".
-- PLAINMATH=FILE tests that converter instead (book.sh plants a broken one).
local path = os.getenv('PLAINMATH')
local pm = path and dofile(path) or (function()
  package.path = 'book/?.lua;' .. package.path
  return require('filter.plainmath')
end)()

local failures, cases = 0, 0
local function fail(msg)
  failures = failures + 1
  io.stdout:write('FAIL ', msg, '\n')
end

-- TeX -> the plain text (accents as escapes: an editor may compose them), and (optionally) the names of its symbols
local CASES = {
  { [[\frac{a}{b}]], 'a/b' },
  { [[\frac{\exp(s_j)}{\sum_{l=1}^{m} \exp(s_l)}]], 'exp(s_j)/(∑_(l=1)^m exp(s_l))', 'exp sum' },
  { [[\alpha_j = \frac{e^{s_j}}{\sum_l e^{s_l}}]], 'α_j = e^(s_j)/(∑_l e^(s_l))', 'alpha sum' },
  { [[\sqrt{d_k}]], '√d_k', 'sqrt' },
  { [[\sqrt 8]], '√8' },
  { [[\sqrt{\sigma^2 + \epsilon}]], '√(σ² + ε)', 'sqrt sigma epsilon' },
  { [[\sqrt{d_{\text{model}}}]], '√d_model' },
  { [[a = \sqrt{\frac{6}{d_{\text{in}} + d_{\text{out}}}} .]], 'a = √(6/(d_in + d_out)).' },
  { [[\sqrt[3]{x}]], '³√x' },
  { [[-\tfrac12\lVert q\rVert^2]], '-1/2‖q‖²', '' },
  { [[\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right) V .]],
    'Attention(Q, K, V) = softmax(QKᵀ/√d_k) V.', 'sqrt' },
  { [[K^{T}]], 'Kᵀ' },
  { [[x_j^\top]], 'x_jᵀ' },
  { [[W_Q^i]], 'W_Qⁱ' },
  { [[q \cdot k]], 'q · k', 'cdot' },
  { [[q\cdot k]], 'q · k' },
  { [[\mathbf{x} + \mathbf{1}]], 'x + 1', '' },
  { [[\mathbb{R}^{n \times d_k}]], 'ℝ^(n × d_k)', 'times' },
  { [[\mathbb{E}[\tilde a] ]], '𝔼[a\u{303}]', 'tilde' },
  { [[10000^{-2i/d}]], '10000^(-2i/d)' },
  { [[e^{-\lvert u \rvert / h}]], 'e^(-|u| / h)' },
  { [[a^K_{r_{ij}}]], 'a^K_(r_ij)' },
  { [[s_{i-1}]], 's_(i-1)' },
  { [[\hat x_j]], 'x\u{302}_j', 'hat' },
  { [[\overline{g^2}]], 'g\u{304}²', 'overline' },
  { [[\overrightarrow{h}_n]], 'h\u{20D7}_n' },
  { [[\frac{\partial L}{\partial x_j}]], '∂L/∂x_j', 'partial' },
  { [[\Big(\frac{\partial L}{\partial x}\Big)_j]], '(∂L/∂x)_j' },
  { [[\mu = \frac{1}{d} \sum_{j=1}^{d} x_j, \qquad \sigma^2]], 'μ = 1/d ∑_(j=1)^d x_j, σ²' },
  { [[H = -\frac{1}{n}\sum_i A_{ii}]], 'H = -1/n ∑_i A_ii' },
  { [[\begin{pmatrix} \cos a & \sin a \\ -\sin a & \cos a \end{pmatrix}]],
    '(cos a, sin a; -sin a, cos a)', 'cos sin' },
  { [[\begin{aligned} r &= \sigma(x) \\ z &= 1 \end{aligned}]], 'r = σ(x); z = 1' },
  { [[\mathrm{d}K \mathrel{+}= \mathrm{d}S^\top Q]], 'dK += dSᵀ Q' },
  { [[\max(M, \max_{j \in B} s_j)]], 'max(M, max_(j ∈ B) s_j)', 'max' },
  { [[e_{it} = v^\top \tanh(s)]], 'e_it = vᵀ tanh(s)', 'tanh' },
  { [[\exp s_j]], 'exp s_j' },
  { [[0 \le H \le \ln m]], '0 ≤ H ≤ ln m', 'ln' },
  { [[T \in \{0.1, 0.5\}]], 'T ∈ {0.1, 0.5}', '' },
  { [[\left.x\right|_{0}]], 'x|_0' },
  { [[\unknowncmd{x} + \foo y]], 'unknowncmd x + foo y', 'unknowncmd foo' },
  { [[\lceil M / 4d \rceil]], '⌈M / 4d⌉' },
  { '', '' },
}

-- the symbol a name stands for, which the search marks in a snippet
for name, want in pairs({ alpha = 'α', sqrt = '√', partial = '∂', cdot = '·', exp = false,
    frac = false }) do
  cases = cases + 1
  local got = pm.symbol and pm.symbol(name)
  if (got or false) ~= want then
    fail(string.format('symbol(%q): got %q, want %q', name, tostring(got), tostring(want)))
  end
end

for _, c in ipairs(CASES) do
  cases = cases + 1
  local ok, text, names = pcall(pm.convert, c[1])
  if not ok then
    fail(string.format('%q: error %s', c[1], tostring(text)))
  else
    if text ~= c[2] then
      fail(string.format('%q: got %q, want %q', c[1], text, c[2]))
    end
    if c[3] and table.concat(names or {}, ' ') ~= c[3] then
      fail(string.format('%q: names %q, want %q', c[1], table.concat(names or {}, ' '), c[3]))
    end
  end
end

-- Every formula of the book converts without a backslash, a brace of TeX's
-- (one it has not printed as \{ or \}), or an error.
local formulas = 0
local list = io.popen('ls chapters/*.md book/*.md 2>/dev/null')
for file in list:lines() do
  local f = io.open(file, 'rb')
  local doc = pandoc.read(f:read('a'), 'markdown')
  f:close()
  pandoc.walk_block(pandoc.Div(doc.blocks), {
    Math = function(m)
      formulas = formulas + 1
      local ok, text = pcall(pm.convert, m.text)
      local braces = select(2, m.text:gsub('\\[{}]', ''))
      local left = ok and select(2, text:gsub('[{}]', '')) or 0
      if not ok then
        fail(string.format('%s: %q: error %s', file, m.text, tostring(text)))
      elseif text:find('\\', 1, true) then
        fail(string.format('%s: %q: a backslash is left: %q', file, m.text, text))
      elseif left > braces then
        fail(string.format('%s: %q: a brace is left: %q', file, m.text, text))
      end
    end,
  })
end
list:close()
if formulas == 0 then fail('no formulas found in chapters/*.md') end
io.stdout:write(string.format('cases %d, formulas %d\n', cases, formulas))
