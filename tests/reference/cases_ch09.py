"""cases_ch09.py -- the training blocks of layers/block_train.h against torch
autograd through nn.TransformerEncoderLayer / nn.TransformerDecoderLayer
(post-norm, dropout 0, ReLU), loaded with the library's weights by reflib's
helpers. Each case draws dL/dy at random; the reference is autograd of
sum(dy * y) in float64. The C wrappers are in fns_ch09.c."""
from reflib import *  # noqa: F401,F403


def grads(out, dout, *leaves):
    """Gradients of sum(dout * out) with respect to leaves (zeros if unused)."""
    g = torch.autograd.grad((out * dout).sum(), leaves, allow_unused=True)
    return [torch.zeros_like(x) if gi is None else gi for x, gi in zip(leaves, g)]


def mha_grads(mha, g_in, g_wo, g_bo):
    """The gradients of an nn.MultiheadAttention in the library's layout:
    W_Q, W_K, W_V, W_O as (d_in, d_out), b_O."""
    wq, wk, wv = g_in.split(mha.embed_dim)         # packed (3d, d), transposed
    return [wq.T, wk.T, wv.T, g_wo.T, g_bo]


def mha_leaves(mha):
    return [mha.in_proj_weight, mha.out_proj.weight, mha.out_proj.bias]


def norm_leaves(ln):
    return [ln.weight, ln.bias]


def ffn_leaves(layer):
    return [layer.linear1.weight, layer.linear1.bias, layer.linear2.weight,
            layer.linear2.bias]


def ffn_grads(g):
    return [g[0].T, g[1], g[2].T, g[3]]            # nn.Linear stores W transposed


def make_encoder_backward(rng, n, m, d, h):
    c = make_encoder(rng, n, m, d, h)
    c.ins.append(randn(rng, n, d))                 # dL/dy
    return c


def ref_encoder_backward(c):
    n, d, h, f = c.ints
    t = [c.t(k) for k in range(14)]
    layer = torch.nn.TransformerEncoderLayer(d, h, f, dropout=0.0, dtype=torch.float64)
    load_mha(layer.self_attn, *t[1:6])
    load_norm(layer.norm1, *t[6:8])
    load_linear(layer.linear1, t[8], t[9])
    load_linear(layer.linear2, t[10], t[11])
    load_norm(layer.norm2, *t[12:14])
    mask = as_bool(c.ins[14])
    x = t[0].requires_grad_()
    y = layer(x, src_mask=None if mask is None else ~mask)
    g = grads(y, c.t(15), x, *mha_leaves(layer.self_attn), *norm_leaves(layer.norm1),
              *ffn_leaves(layer), *norm_leaves(layer.norm2))
    return [g[0]] + mha_grads(layer.self_attn, *g[1:4]) + g[4:6] + ffn_grads(g[6:10]) \
        + g[10:12]


def make_decoder_backward(rng, n, m, d, h):
    c = make_decoder(rng, n, m, d, h)
    c.ins.append(randn(rng, n, d))                 # dL/dy
    return c


def ref_decoder_backward(c):
    n, m, d, h, f = c.ints
    t = [c.t(k) for k in range(22)]
    layer = torch.nn.TransformerDecoderLayer(d, h, f, dropout=0.0, dtype=torch.float64)
    load_mha(layer.self_attn, *t[2:7])
    load_norm(layer.norm1, *t[7:9])
    load_mha(layer.multihead_attn, *t[9:14])
    load_norm(layer.norm2, *t[14:16])
    load_linear(layer.linear1, t[16], t[17])
    load_linear(layer.linear2, t[18], t[19])
    load_norm(layer.norm3, *t[20:22])
    visible = torch.ones(n, n, dtype=torch.bool).tril()     # causal ...
    if c.ins[22] is not None:
        visible &= as_bool(c.ins[22])                       # ... and self_mask
    cross = as_bool(c.ins[23])
    x, enc = t[0].requires_grad_(), t[1].requires_grad_()
    y = layer(x, enc, tgt_mask=~visible, memory_mask=None if cross is None else ~cross)
    g = grads(y, c.t(24), x, enc, *mha_leaves(layer.self_attn),
              *norm_leaves(layer.norm1), *mha_leaves(layer.multihead_attn),
              *norm_leaves(layer.norm2),
              *ffn_leaves(layer), *norm_leaves(layer.norm3))
    return g[0:2] + mha_grads(layer.self_attn, *g[2:5]) + g[5:7] \
        + mha_grads(layer.multihead_attn, *g[7:10]) + g[10:12] + ffn_grads(g[12:16]) \
        + g[16:18]


TABLE = [
    Fn("blk_encoder_backward", lambda rng: heads_sizes(rng, long=128),
       make_encoder_backward, ref_encoder_backward),
    Fn("blk_decoder_backward", lambda rng: heads_sizes(rng, long=128),
       make_decoder_backward, ref_decoder_backward),
]
