"""cases_ch08.py -- chapter 8's training layers against PyTorch: nn.GRUCell,
nn.GRU (bidirectional, on a padded batch via pack_padded_sequence),
F.embedding and F.cross_entropy(ignore_index), and the backward passes
against torch autograd. The C GRU stores W_ih (D, 3H) and W_hh (H, 3H), the
transposes of torch's weight_ih / weight_hh; gates in torch's order r, z, n."""
from reflib import *
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def gru_params(rng, d, h):
    k = 1.0 / math.sqrt(h)
    return [uniform(rng, d, 3 * h, lo=-k, hi=k), uniform(rng, h, 3 * h, lo=-k, hi=k),
            uniform(rng, 3 * h, lo=-k, hi=k), uniform(rng, 3 * h, lo=-k, hi=k)]


def torch_cell(ws, d, h):
    cell = torch.nn.GRUCell(d, h).double()
    with torch.no_grad():
        cell.weight_ih.copy_(ws[0].T)
        cell.weight_hh.copy_(ws[1].T)
        cell.bias_ih.copy_(ws[2])
        cell.bias_hh.copy_(ws[3])
    return cell


def torch_bigru(ws, d, h):
    g = torch.nn.GRU(d, h, bidirectional=True).double()
    names = ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    with torch.no_grad():
        for k, n in enumerate(names):
            src = ws[k].T if k < 2 else ws[k]
            getattr(g, n).copy_(src)
            src = ws[4 + k].T if k < 2 else ws[4 + k]
            getattr(g, n + "_reverse").copy_(src)
    return g


def make_cell(rng, b, d, h):
    return Case([b, d, h], [], [randn(rng, b, d), randn(rng, b, h, scale=0.5)]
                + gru_params(rng, d, h) + [randn(rng, b, h)])


def ref_cell_forward(c):
    b, d, h = c.ints
    cell = torch_cell([c.t(k) for k in range(2, 6)], d, h)
    return [cell(c.t(0), c.t(1)).detach()]


def ref_cell_backward(c):
    b, d, h = c.ints
    cell = torch_cell([c.t(k) for k in range(2, 6)], d, h)
    x, hh = c.t(0).requires_grad_(True), c.t(1).requires_grad_(True)
    cell(x, hh).backward(c.t(6))
    return [x.grad, hh.grad, cell.weight_ih.grad.T, cell.weight_hh.grad.T,
            cell.bias_ih.grad, cell.bias_hh.grad]


def bigru_sizes(rng):
    return [dict(t=t, b=b, d=d, h=h) for t, b, d, h in
            [(1, 1, 1, 1), (12, 8, 16, 24), (5, 1, 3, 2), (1, 6, 4, 4)]
            + [(int(rng.integers(1, 13)), int(rng.integers(1, 9)),
                int(rng.integers(1, 17)), int(rng.integers(1, 25))) for _ in range(46)]]


def make_bigru(rng, t, b, d, h):
    lens = rng.integers(1, t + 1, size=b)
    lens[0] = t                                    # pack needs the longest present
    mask = (np.arange(t)[None, :] < lens[:, None]).astype(np.float32)   # (B, T)
    return Case([t, b, d, h], [], [randn(rng, t, b, d), mask]
                + gru_params(rng, d, h) + gru_params(rng, d, h)
                + [randn(rng, t, b, 2 * h)])


def bigru_run(c, x):
    t, b, d, h = c.ints
    g = torch_bigru([c.t(k) for k in range(2, 10)], d, h)
    lens = c.ins[1].sum(1).astype(np.int64)
    out, _ = g(pack_padded_sequence(x, torch.from_numpy(lens), enforce_sorted=False))
    out, _ = pad_packed_sequence(out, total_length=t)
    return g, out        # (T, B, 2H), zeros at padded positions


def ref_bigru_forward(c):
    _, out = bigru_run(c, c.t(0))
    return [out.detach()]


def ref_bigru_backward(c):
    x = c.t(0).requires_grad_(True)
    g, out = bigru_run(c, x)
    m = c.t(1).T[:, :, None]                      # only visible positions count
    (out * c.t(10) * m).sum().backward()
    d, r = {}, "_reverse"
    for s in ["", r]:
        d[s] = [getattr(g, "weight_ih_l0" + s).grad.T, getattr(g, "weight_hh_l0" + s).grad.T,
                getattr(g, "bias_ih_l0" + s).grad, getattr(g, "bias_hh_l0" + s).grad]
    return [x.grad] + d[""] + d[r]


def make_embedding(rng, n, v, e):
    return Case([n, v, e], [], [randn(rng, v, e), rng.integers(0, v, size=n),
                                randn(rng, n, e)])


def ref_embedding_forward(c):
    return [F.embedding(c.t(1).long(), c.t(0))]


def ref_embedding_backward(c):
    table = c.t(0).requires_grad_(True)
    F.embedding(c.t(1).long(), table).backward(c.t(2))
    return [table.grad]


def make_xent(rng, n, v):
    y = rng.integers(0, v, size=n)
    ignore = int(rng.integers(0, v))
    y[rng.random(n) < 0.2] = ignore                # some padding rows
    return Case([n, v, ignore], [1.0 / max(1, n)], [randn(rng, n, v, scale=3.0), y])


def ref_xent_forward(c):
    z, y, ignore = c.t(0), c.t(1).long(), c.ints[2]
    loss = F.cross_entropy(z, y, ignore_index=ignore, reduction="sum")
    return [loss.reshape(1), z.softmax(-1),
            torch.tensor([float((y != ignore).sum())], dtype=torch.float64)]


def ref_xent_backward(c):
    z, y, ignore = c.t(0).requires_grad_(True), c.t(1).long(), c.ints[2]
    (F.cross_entropy(z, y, ignore_index=ignore, reduction="sum") * c.reals[0]).backward()
    return [z.grad]


TABLE = [
    Fn("gru_cell_forward", dict(b=(16, 64), d=(32, 96), h=(32, 96)), make_cell,
       ref_cell_forward),
    Fn("gru_cell_backward", dict(b=(16, 64), d=(32, 96), h=(32, 96)), make_cell,
       ref_cell_backward),
    Fn("bigru_forward", bigru_sizes, make_bigru, ref_bigru_forward),
    Fn("bigru_backward", bigru_sizes, make_bigru, ref_bigru_backward),
    Fn("embedding_forward", dict(n=(64, 512), v=(64, 1000), e=(32, 256)),
       make_embedding, ref_embedding_forward),
    Fn("embedding_backward", dict(n=(64, 512), v=(64, 1000), e=(32, 256)),
       make_embedding, ref_embedding_backward),
    Fn("xent_forward", dict(n=(64, 512), v=(64, 1000)), make_xent, ref_xent_forward),
    Fn("xent_backward", dict(n=(64, 512), v=(64, 1000)), make_xent, ref_xent_backward),
]
