#!/usr/bin/python3
"""torch_train.py [--quick] -- the book's three trained models as plain PyTorch modules.

One training step (forward, backward, clip, Adam or AdamW) of each model on the
shapes code/bench/bench_train.c uses, one thread (torch.set_num_threads(1)),
printed in bench_train's format:

  model  case  threads  tokens  median_seconds  tokens_per_s  repeats

The modules are written here, layer by layer as the book builds them, from
torch.nn's Linear, Embedding, GRU and GRUCell and tensor operations (no
library model such as torch.nn.Transformer):
  seq2seq      chapter 8: bidirectional GRU encoder, additive attention, GRU
               decoder fed [emb(y_{i-1}); c_i], output from [s_i; c_i]
  transformer  chapter 9: post-norm encoder-decoder, sinusoidal positions
  gpt          chapter 10: RMSNorm, RoPE, grouped-query causal attention,
               SwiGLU, tied embedding
with the chapters' optimisers (Adam's betas and epsilon, AdamW's decay on the
matrices only, the clipping norm); the learning-rate schedules are left out
(a multiplication per step). Timed like bench_train: WARM_UP untimed steps, at
least 5 timed, more while they take under a second (--quick: a tenth), the
median. Also, case "per_op": tokens is the number of operators one step runs
(forward, backward and optimiser, as autograd's profiler lists them), and
median_seconds the step's time divided among them: the per-op overhead the small
models pay.
"""
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import torch_anchor  # its median_time: the two benches time alike

SENT_LEN, BATCH, WARM_UP, MIN_REPS, MAX_REPS = 17, 16, 2, 5, 999
WORDS, V_SRC, V_TGT = 60, 61, 63           # data/mirror.h
GPT_SHAPE = dict(V=512, C=64, L=2, NH=4, NKV=2, F=(8 * 64 // 3 + 3) // 4 * 4, B=2, T=64)


class Seq2Seq(nn.Module):
    def __init__(self, e=16, h=32, a=32):
        super().__init__()
        self.emb_src, self.emb_tgt = nn.Embedding(V_SRC, e), nn.Embedding(V_TGT, e)
        self.enc = nn.GRU(e, h, batch_first=True, bidirectional=True)
        self.init = nn.Linear(2 * h, h)
        self.w_a = nn.Linear(h, a, bias=False)
        self.u_a = nn.Linear(2 * h, a, bias=False)
        self.v_a = nn.Linear(a, 1, bias=False)
        self.dec = nn.GRUCell(e + 2 * h, h)
        self.out = nn.Linear(3 * h, V_TGT)

    def forward(self, src, tin):
        ann, last = self.enc(self.emb_src(src))               # (B, T, 2H), (2, B, H)
        s = torch.tanh(self.init(torch.cat([last[0], last[1]], -1)))
        keys, y, outs = self.u_a(ann), self.emb_tgt(tin), []
        for i in range(tin.shape[1]):
            e = self.v_a(torch.tanh(keys + self.w_a(s)[:, None])).squeeze(-1)
            c = torch.bmm(torch.softmax(e, -1)[:, None], ann).squeeze(1)
            s = self.dec(torch.cat([y[:, i], c], -1), s)
            outs.append(torch.cat([s, c], -1))
        return self.out(torch.stack(outs, 1))                 # (B, U, Vt)


def attention(q, k, v, mask):
    """q (B, h, n, dk), k, v (B, h, m, dk), mask (n, m) or (B, 1, 1, m), True = hidden."""
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    return torch.softmax(s.masked_fill(mask, -math.inf), -1) @ v


class MHA(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.wq, self.wk, self.wv = (nn.Linear(d, d, bias=False) for _ in range(3))
        self.wo = nn.Linear(d, d)

    def forward(self, xq, xkv, mask):
        b, n, d = xq.shape
        split = lambda x: x.view(b, -1, self.h, d // self.h).transpose(1, 2)
        o = attention(split(self.wq(xq)), split(self.wk(xkv)), split(self.wv(xkv)), mask)
        return self.wo(o.transpose(1, 2).reshape(b, n, d))


class Transformer(nn.Module):
    def __init__(self, d=32, h=4, d_ff=64, layers=2, t_max=64):
        super().__init__()
        self.d = d
        self.emb_src, self.emb_tgt = nn.Embedding(V_SRC + 1, d), nn.Embedding(V_TGT, d)
        pos = torch.arange(t_max)[:, None] / 10000 ** (torch.arange(0, d, 2) / d)
        self.register_buffer("pe", torch.stack([pos.sin(), pos.cos()], -1).view(t_max, d))
        ffn = lambda: nn.Sequential(nn.Linear(d, d_ff), nn.ReLU(), nn.Linear(d_ff, d))
        self.enc = nn.ModuleList(nn.ModuleDict(dict(
            att=MHA(d, h), n1=nn.LayerNorm(d), ffn=ffn(), n2=nn.LayerNorm(d)))
            for _ in range(layers))
        self.dec = nn.ModuleList(nn.ModuleDict(dict(
            att=MHA(d, h), n1=nn.LayerNorm(d), cross=MHA(d, h), n2=nn.LayerNorm(d),
            ffn=ffn(), n3=nn.LayerNorm(d))) for _ in range(layers))
        self.out = nn.Linear(d, V_TGT)

    def forward(self, src, tin):
        pad = (src == 0)[:, None, None]                       # (B, 1, 1, T)
        causal = torch.ones(tin.shape[1], tin.shape[1]).triu(1).bool()
        x = self.emb_src(src) * math.sqrt(self.d) + self.pe[:src.shape[1]]
        for blk in self.enc:
            x = blk["n1"](x + blk["att"](x, x, pad))
            x = blk["n2"](x + blk["ffn"](x))
        y = self.emb_tgt(tin) * math.sqrt(self.d) + self.pe[:tin.shape[1]]
        for blk in self.dec:
            y = blk["n1"](y + blk["att"](y, y, causal))
            y = blk["n2"](y + blk["cross"](y, x, pad))
            y = blk["n3"](y + blk["ffn"](y))
        return self.out(y)


class RMSNorm(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.ones(c))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.w


def rope(x, cos, sin):
    """x (B, h, T, hs): each pair (x_2i, x_2i+1) turned by position t times theta_i."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1).flatten(-2)


class GPTBlock(nn.Module):
    def __init__(self, c, nh, nkv, f):
        super().__init__()
        self.nh, self.nkv, self.hs = nh, nkv, c // nh
        self.n1, self.n2 = RMSNorm(c), RMSNorm(c)
        self.wq = nn.Linear(c, c, bias=False)
        self.wk = nn.Linear(c, nkv * self.hs, bias=False)
        self.wv = nn.Linear(c, nkv * self.hs, bias=False)
        self.wo = nn.Linear(c, c, bias=False)
        self.w1, self.w3 = nn.Linear(c, f, bias=False), nn.Linear(c, f, bias=False)
        self.w2 = nn.Linear(f, c, bias=False)

    def forward(self, x, cos, sin, mask):
        b, t, c = x.shape
        a = self.n1(x)
        q = self.wq(a).view(b, t, self.nh, self.hs).transpose(1, 2)
        k = self.wk(a).view(b, t, self.nkv, self.hs).transpose(1, 2)
        v = self.wv(a).view(b, t, self.nkv, self.hs).transpose(1, 2)
        rep = self.nh // self.nkv
        k = rope(k, cos, sin).repeat_interleave(rep, 1)
        o = attention(rope(q, cos, sin), k, v.repeat_interleave(rep, 1), mask)
        x = x + self.wo(o.transpose(1, 2).reshape(b, t, c))
        a = self.n2(x)
        return x + self.w2(F.silu(self.w1(a)) * self.w3(a))


class GPT(nn.Module):
    def __init__(self, V, C, L, NH, NKV, F, T, **_):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.blocks = nn.ModuleList(GPTBlock(C, NH, NKV, F) for _ in range(L))
        self.nf = RMSNorm(C)
        hs = C // NH
        ang = torch.arange(T)[:, None] * 10000.0 ** (-torch.arange(0, hs, 2) / hs)
        self.register_buffer("cos", ang.cos())
        self.register_buffer("sin", ang.sin())
        self.register_buffer("mask", torch.ones(T, T).triu(1).bool())

    def forward(self, tok):
        x = self.wte(tok)
        for blk in self.blocks:
            x = blk(x, self.cos, self.sin, self.mask)
        return self.nf(x) @ self.wte.weight.T                 # tied


def pairs(gen, src_eos):
    """A batch of BATCH sentences of SENT_LEN words, as bench_train.c's."""
    words = torch.randint(1, WORDS + 1, (BATCH, SENT_LEN), generator=gen)
    src = torch.cat([words, torch.full((BATCH, 1), V_SRC)], 1) if src_eos else words
    tgt = (words + 2).flip(1)                                # translated, reversed
    tin = torch.cat([torch.ones(BATCH, 1, dtype=torch.long), tgt], 1)
    tout = torch.cat([tgt, torch.full((BATCH, 1), 2)], 1)
    return src, tin, tout


def stepper(model, opt, clip, inputs, target, ignore):
    """One step: the mean cross-entropy over the targets not equal to ignore."""
    def step():
        opt.zero_grad(set_to_none=True)
        logits = model(*inputs)
        loss = F.cross_entropy(logits.flatten(0, -2), target.flatten(),
                               ignore_index=ignore)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
    return step


def gpt_adamw(model):
    norms = [p for n, p in model.named_parameters() if p.dim() == 1]
    mats = [p for n, p in model.named_parameters() if p.dim() > 1]
    return torch.optim.AdamW([dict(params=mats, weight_decay=0.1),
                              dict(params=norms, weight_decay=0.0)],
                             lr=3e-3, betas=(0.9, 0.95), eps=1e-8)


def median_time(fn, budget):
    return torch_anchor.median_time(fn, WARM_UP, MIN_REPS, MAX_REPS, budget)


def ops_per_step(fn):
    with torch.autograd.profiler.profile() as prof:
        fn()
    return len(prof.function_events)


def main(argv):
    if argv[1:] not in ([], ["--quick"]):
        print("usage: torch_train.py [--quick]", file=sys.stderr)
        return 2
    budget = 0.1 if argv[1:] else 1.0
    torch.set_num_threads(1)
    torch.manual_seed(42)
    gen = torch.Generator().manual_seed(42)
    print("model\tcase\tthreads\ttokens\tmedian_seconds\ttokens_per_s\trepeats")
    s2s = Seq2Seq()
    src, tin, tout = pairs(gen, 0)
    tf = Transformer()
    src9, tin9, tout9 = pairs(gen, 1)
    gpt = GPT(**GPT_SHAPE)
    tok = torch.randint(0, GPT_SHAPE["V"], (GPT_SHAPE["B"], GPT_SHAPE["T"] + 1), generator=gen)
    cases = [
        ("seq2seq", stepper(s2s, torch.optim.Adam(s2s.parameters(), lr=0.008, eps=1e-8),
                            5.0, (src, tin), tout, 0), tout.numel()),
        ("transformer", stepper(tf, torch.optim.Adam(tf.parameters(), lr=0.007,
                                                     betas=(0.9, 0.98), eps=1e-9),
                                5.0, (src9, tin9), tout9, 0), tout9.numel()),
        ("gpt", stepper(gpt, gpt_adamw(gpt), 1.0, (tok[:, :-1],), tok[:, 1:], -1),
         GPT_SHAPE["B"] * GPT_SHAPE["T"]),
    ]
    for name, step, tokens in cases:
        t, reps = median_time(step, budget)
        print(f"{name}\ttrain_step\t1\t{tokens}\t{t:.6g}\t{tokens / t:.1f}\t{reps}",
              flush=True)
        ops = ops_per_step(step)
        print(f"{name}\tper_op\t1\t{ops}\t{t / ops:.6g}\t{ops / t:.1f}\t{reps}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
