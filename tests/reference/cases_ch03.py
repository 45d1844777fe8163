"""cases_ch03.py -- chapter 3's additions against PyTorch (see reflib.py):
the attention-pattern loss of qk_train.h and its gradients, against autograd."""
from reflib import *  # noqa: F401,F403


def make_qk(rng, n, d, k):
    t = rng.integers(-1, n, n)
    t[rng.integers(0, n)] = rng.integers(0, n)        # at least one scored row
    return Case([n, d, k], [], [randn(rng, n, d), xavier(rng, d, k), xavier(rng, d, k),
                                t.astype(np.float32), randn(rng, d, k), randn(rng, d, k)])


def qk_graph(c):
    x, t = c.t(0), torch.from_numpy(c.ins[3].astype(np.int64))
    w_q, w_k = c.t(1).requires_grad_(), c.t(2).requires_grad_()
    s = (x @ w_q) @ (x @ w_k).T / math.sqrt(c.ints[2])
    loss = F.cross_entropy(s, t, ignore_index=-1)
    return loss, s.softmax(-1), w_q, w_k


def ref_qk_forward(c):
    loss, a, _, _ = qk_graph(c)
    return [loss.reshape(1), a]


def ref_qk_backward(c):
    loss, _, w_q, w_k = qk_graph(c)
    loss.backward()
    return [c.t(4) + w_q.grad, c.t(5) + w_k.grad]


QK = dict(n=(24, 60), d=(32, 128), k=(16, 64))

TABLE = [
    Fn("qk_forward", QK, make_qk, ref_qk_forward),
    Fn("qk_backward", QK, make_qk, ref_qk_backward),
]
