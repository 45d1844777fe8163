"""cases_ch07.py -- chapter 7's functions (code/lib/position/) against torch.

torch 1.13 has no sinusoidal encoding, RoPE or ALiBi, so the references are
the papers' formulas written in float64 torch:
  Vaswani et al. 2017, section 3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d)),
      PE(pos, 2i+1) = cos(pos / 10000^(2i/d));
  Su et al. 2021, section 3: pairs (2i, 2i+1) turned by pos * theta_i,
      theta_i = 10000^(-2i/d) (i from 0), here as complex multiplication;
      section 3.4.3: the decay bound (1/(d/2)) sum_j |S_j|;
  Press et al. 2022, section 3: slopes 2^(-8h/H), h = 1..H, and the bias
      -m (i - j) added to q_i . k_j for keys j <= i.
The learned table is F.embedding. The C wrappers are in fns_ch07.c.
check_invariants() at the end tests the formulas themselves first."""
from reflib import *  # noqa: F401,F403


def sin_ref(n, d, pos0, base):
    pos = torch.arange(pos0, pos0 + n, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, d, 2, dtype=torch.float64)
    ang = pos / base ** (i2 / d)                     # (n, ceil(d/2))
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(ang)
    pe[:, 1::2] = torch.cos(ang[:, :d // 2])
    return pe


def offset_ref(d, k, base):
    """M with PE(pos + k) = M PE(pos) (column vectors): from the angle-sum
    identities, block [[cos, sin], [-sin, cos]] of angle k w_i."""
    m = torch.zeros(d, d, dtype=torch.float64)
    for c in range(0, d, 2):
        a = torch.tensor(k / base ** (c / d), dtype=torch.float64)
        m[c, c] = torch.cos(a)
        if c + 1 < d:
            m[c, c + 1], m[c + 1, c], m[c + 1, c + 1] = torch.sin(a), -torch.sin(a), \
                torch.cos(a)
    return m


def theta_ref(d, base):
    return base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)


def rope_ref(x, pos0, base):
    """x (n, d): pairs as complex numbers, times exp(1j (pos0 + r) theta_i)."""
    n, d = x.shape
    z = torch.view_as_complex(x.reshape(n, d // 2, 2).contiguous())
    pos = torch.arange(pos0, pos0 + n, dtype=torch.float64)[:, None]
    turn = torch.polar(torch.ones(n, d // 2, dtype=torch.float64), pos * theta_ref(d, base))
    return torch.view_as_real(z * turn).reshape(n, d)


def rope_scaled_ref(x, pos0, scale, base):
    """Position interpolation (Chen et al. 2023, eq. 4): f(x, m L / L'), i.e.
    rope_ref at positions (pos0 + r) * scale, from the same complex form."""
    n, d = x.shape
    z = torch.view_as_complex(x.reshape(n, d // 2, 2).contiguous())
    pos = torch.arange(pos0, pos0 + n, dtype=torch.float64)[:, None] * scale
    turn = torch.polar(torch.ones(n, d // 2, dtype=torch.float64), pos * theta_ref(d, base))
    return torch.view_as_real(z * turn).reshape(n, d)


def make_rope_scaled(rng, n, d):
    """Interpolation scales L/L' and NTK-aware bases 10000 s^(d/(d-2))."""
    c = make_rope(rng, n, d)
    s = float(rng.choice([1.0, 2.0, 4.0, 8.0]))
    scale = float(rng.choice([1.0, 1.0 / s, rng.uniform(0.01, 1.0)]))
    dd = c.ints[1]
    ntk = 10000.0 * s ** (dd / (dd - 2)) if dd >= 4 else 10000.0
    base = float(rng.choice([10000.0, ntk]))
    return Case(c.ints, [f32(base), f32(scale)], c.ins)


def rope_matrix_ref(d, pos, base):
    """R_pos: its column j is unit vector e_j turned for position pos."""
    return torch.stack([rope_ref(e[None, :], pos, base)[0]
                        for e in torch.eye(d, dtype=torch.float64)], 1)


def decay_ref(d, dist, base):
    s = torch.cumsum(torch.exp(1j * dist * theta_ref(d, base)), 0)
    return s.abs().mean().reshape(1)


def slopes_ref(h):
    return 2.0 ** (-8.0 * torch.arange(1, h + 1, dtype=torch.float64) / h)


def bias_ref(n, slope):
    i = torch.arange(n, dtype=torch.float64)
    return -slope * (i[:, None] - i[None, :]).clamp(min=0)


def alibi_ref(c):
    n, d_k, d_v = c.ints
    q, k, v = c.t(0), c.t(1), c.t(2)
    s = q @ k.T / math.sqrt(d_k) + bias_ref(n, c.reals[0])
    future = torch.ones(n, n, dtype=torch.bool).triu(1)
    w = s.masked_fill(future, -INF).softmax(-1)
    return [w @ v, w]


def make_rope(rng, n, d):
    d = 2 * d                                           # pairs
    pos0 = int(rng.choice([0, 1, int(rng.integers(0, 100)), int(rng.integers(0, 20000)),
                           -int(rng.integers(1, 50))]))
    return Case([n, d, pos0], [10000.0], [randn(rng, n, d)])


def make_lookup(rng, n, d):
    max_len = int(rng.integers(1, 65))
    pos = rng.integers(0, max_len, n).astype(np.float32)
    return Case([n, d, max_len], [], [randn(rng, max_len, d, scale=0.02), pos])


TABLE = [
    # --- sinusoidal.h ------------------------------------------------------------
    Fn("sinusoidal_table", dict(n=(64, 2048), d=(64, 512)),
       lambda rng, n, d: Case([n, d, int(rng.choice([0, 0, 1, rng.integers(0, 10000)]))],
                              [f32(rng.choice([10000.0, 10000.0, 100.0, 2.0]))]),
       lambda c: [sin_ref(c.ints[0], c.ints[1], c.ints[2], c.reals[0])]),
    Fn("sinusoidal_offset_matrix", dict(d=(32, 128)),
       lambda rng, d: Case([d, int(rng.integers(-100, 1000))], [10000.0]),
       lambda c: [offset_ref(c.ints[0], c.ints[1], c.reals[0])]),
    # --- learned.h ---------------------------------------------------------------
    Fn("learned_pe_lookup", dict(n=(64, 512), d=(64, 256)), make_lookup,
       lambda c: [F.embedding(torch.from_numpy(c.ins[1].astype(np.int64)), c.t(0))],
       **EXACT),
    # --- rope.h ------------------------------------------------------------------
    Fn("rope_theta", dict(d=(64, 512)),
       lambda rng, d: Case([2 * d], [10000.0]),
       lambda c: [theta_ref(c.ints[0], c.reals[0])]),
    Fn("rope_apply", dict(n=(64, 512), d=(32, 256)), make_rope,
       lambda c: [rope_ref(c.t(0), c.ints[2], c.reals[0])]),
    Fn("rope_apply_scaled", dict(n=(64, 512), d=(32, 256)), make_rope_scaled,
       lambda c: [rope_scaled_ref(c.t(0), c.ints[2], c.reals[1], c.reals[0])]),
    Fn("rope_matrix", dict(d=(16, 64)),
       lambda rng, d: Case([2 * d, int(rng.choice([0, rng.integers(-50, 5000)]))],
                          [10000.0]),
       lambda c: [rope_matrix_ref(c.ints[0], c.ints[1], c.reals[0])]),
    Fn("rope_decay_bound", dict(d=(64, 256)),
       lambda rng, d: Case([2 * d, int(rng.integers(-600, 600))], [10000.0]),
       lambda c: [decay_ref(c.ints[0], c.ints[1], c.reals[0])]),
    # --- alibi.h -----------------------------------------------------------------
    Fn("alibi_slopes", dict(h=(32, 64)),
       lambda rng, h: Case([h]), lambda c: [slopes_ref(c.ints[0])]),
    Fn("alibi_bias", dict(n=(64, 512)),
       lambda rng, n: Case([n], [f32(rng.choice([0.5, 2.0 ** -8, rng.uniform(0, 1)]))]),
       lambda c: [bias_ref(c.ints[0], c.reals[0])]),
    Fn("alibi_attention", dict(n=(64, 512), d_k=(32, 64), d_v=(32, 64)),
       lambda rng, n, d_k, d_v: Case(
           [n, d_k, d_v], [f32(rng.choice([0.5, 0.0625, 2.0 ** -8, 0.0]))],
           [randn(rng, n, d_k), randn(rng, n, d_k), randn(rng, n, d_v)]),
       alibi_ref),
]


def check_invariants():
    """The references above are formulas typed from the papers, so they are
    checked against the properties the chapter relies on before any C result
    is compared with them (an AssertionError stops the run):
      - PE rows have length sqrt(d/2), and PE(pos + k) = M_k PE(pos);
      - RoPE keeps lengths, and (R_m q) . (R_n k) depends on m - n only;
      - the ALiBi slopes for 8 heads are 1/2 .. 1/256, and bias[i][j]
        depends on i - j only."""
    d, n, base = 16, 300, 10000.0
    pe = sin_ref(n + 20, d, 0, base)
    assert torch.allclose(pe.norm(dim=1), torch.full((n + 20,), math.sqrt(d / 2),
                                                     dtype=torch.float64))
    for k in (1, 7, 20):
        assert torch.allclose(pe[:n] @ offset_ref(d, k, base).T, pe[k:n + k], atol=1e-12)
    g = torch.Generator().manual_seed(7)
    q, k = torch.randn(1, d, generator=g, dtype=torch.float64), \
        torch.randn(1, d, generator=g, dtype=torch.float64)
    assert torch.allclose(rope_ref(q, 123, base).norm(), q.norm())
    for m, nn in ((5, 2), (1003, 1000), (0, 3), (4000, 4003)):
        s = (rope_ref(q, m, base) * rope_ref(k, nn, base)).sum()
        s0 = (rope_ref(q, m - nn, base) * rope_ref(k, 0, base)).sum()
        assert abs(float(s - s0)) < 1e-9, (m, nn)
    assert torch.allclose(slopes_ref(8), 0.5 ** torch.arange(1, 9, dtype=torch.float64))
    b = bias_ref(12, 0.25)
    assert all(torch.allclose(b.diagonal(-t), torch.full((12 - t,), -0.25 * t,
                                                              dtype=torch.float64))
               for t in range(12))


check_invariants()
