#!/usr/bin/python3
"""test_reference.py DRIVER [--tap-start N] [--summary FILE] [NAME...]

Checks the C library against PyTorch. For every entry of TABLE below it draws
random cases (shapes with the edge sizes 1, odd sizes and long sequences), sends
them all to the C driver (tests/reference/driver.c) in one process call,
computes the same thing with PyTorch in float64 from the same float32 inputs,
and prints one TAP line per function with the largest difference found.
NAMEs limit the run to those functions; --summary writes a table of the
largest differences.

A value passes when |c - ref| <= atol + rtol |ref|, with atol = rtol = 1e-5
unless an entry says otherwise (and why). Functions that draw random numbers
are held to the distribution PyTorch's counterpart samples from instead.
Run with Debian's /usr/bin/python3, which has python3-torch and python3-numpy.

ADDING A FUNCTION takes one entry in TABLE here,

    Fn("softmax_rows_temp", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [temperature(rng)], [randn(rng, n, m)]),
       lambda c: [(c.t(0) / c.reals[0]).softmax(-1)]),

(name; sizes to draw, as name=(typical largest, long); a Case of integer
parameters, real parameters and float32 input arrays; the torch reference,
one tensor per output) and one in fns_*.c: a FN(name) wrapper that unpacks
the same parameters and arrays in the same order, plus ENTRY(name) in its TABLE.
"""
import glob
import importlib.util
import os
import subprocess
import sys
import traceback
import zlib

# One thread for OpenBLAS and torch: the shapes are small, and on a machine the
# other test groups keep busy, idle threads spinning for work cost more CPU
# than they save (the reference group: half its CPU time).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402  (after the thread settings)
import torch  # noqa: E402

from reflib import *  # noqa: F401,F403  Case, Fn, randn, ... (the shared helpers)

# ---------------------------------------------------------------------------
# THE TABLE: one entry per library function with a PyTorch counterpart,
# in the order of the book.


TABLE = [
    # --- mat.h: the matrix helpers every chapter uses --------------------------
    Fn("mat_mul", dict(n=(64, 512), k=(64, 1024), m=(64, 512)),
       lambda rng, n, k, m: Case([n, k, m], [], [randn(rng, n, k), randn(rng, k, m)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("mat_mul_bt", dict(n=(64, 512), k=(64, 1024), m=(64, 512)),
       lambda rng, n, k, m: Case([n, k, m], [], [randn(rng, n, k), randn(rng, m, k)]),
       lambda c: [c.t(0) @ c.t(1).T]),
    Fn("mat_transpose", dict(n=(64, 1024), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).T], **EXACT),
    Fn("mat_scale", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [f32(rng.normal(0, 3))], [randn(rng, n)]),
       lambda c: [c.t(0) * c.reals[0]]),
    Fn("mat_add", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [randn(rng, n), randn(rng, n)]),
       lambda c: [c.t(0) + c.t(1)]),
    Fn("mat_add_row", dict(n=(64, 1024), m=(64, 512)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m), randn(rng, m)]),
       lambda c: [c.t(0) + c.t(1)]),
    Fn("mat_dot", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n), randn(rng, n)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("mat_norm", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n)]),
       lambda c: [c.t(0).norm()]),

    # --- stats.h ---------------------------------------------------------------
    Fn("stats_of", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n, scale=rng.choice([0.01, 1.0, 100.0]),
                                           mean=rng.choice([0.0, 1000.0]))]),
       lambda c: [torch.stack([c.t(0).mean(), c.t(0).std(unbiased=False),
                               c.t(0).min(), c.t(0).max()])]),
    # counts must be exact: random data never lands on a bin edge, and the
    # integer data lands exactly on edges, which both compute exactly
    Fn("stats_histogram", dict(n=(300, 10000), bins=(40, 200)), make_stats_histogram,
       ref_stats_histogram, **EXACT),

    # --- chapter 1: scoring.h, kernel_regression.h, geometry.h -------------------
    Fn("score_dot", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [(c.t(0) * c.t(1)).sum(-1)]),
    Fn("score_scaled_dot", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [(c.t(0) * c.t(1)).sum(-1) / c.ints[1] ** 0.5]),
    # a zero vector has no direction: both give 0
    Fn("score_cosine", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [with_zero_row(rng, randn(rng, n, d)),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [F.cosine_similarity(c.t(0), c.t(1), dim=-1)]),
    Fn("score_additive", dict(n=(10, 100), d_q=(32, 512), d_k=(32, 512), d_h=(32, 512)),
       lambda rng, n, d_q, d_k, d_h: Case([n, d_q, d_k, d_h], [], [
           randn(rng, n, d_q), randn(rng, n, d_k), randn(rng, d_h, d_q, scale=0.3),
           randn(rng, d_h, d_k, scale=0.3), randn(rng, d_h)]),
       lambda c: [torch.tanh(c.t(0) @ c.t(2).T + c.t(1) @ c.t(3).T) @ c.t(4)]),
    # with ties (integer scores) the first largest score wins, as in argmax
    Fn("score_hard", dict(n=(20, 100), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [
           rng.integers(0, 3, (n, m)) if rng.random() < 0.3 else randn(rng, n, m)]),
       lambda c: [F.one_hot(c.t(0).argmax(-1), c.ints[1])], **EXACT),
    Fn("nw_gaussian_kernel", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [f32(rng.uniform(0.05, 3))], [randn(rng, n, scale=2)]),
       lambda c: [torch.exp(-c.t(0) ** 2 / (2 * c.reals[0] ** 2))]),
    Fn("nw_weights", dict(n_q=(64, 1024), n_t=(64, 1024)),
       lambda rng, n_q, n_t: Case([n_q, n_t], [f32(rng.uniform(0.1, 2))], [
           uniform(rng, n_q, lo=0, hi=5), uniform(rng, n_t, lo=0, hi=5)]),
       lambda c: [(-(c.t(0)[:, None] - c.t(1)[None, :]) ** 2
                   / (2 * c.reals[0] ** 2)).softmax(-1)]),
    Fn("nw_predict", dict(n_q=(64, 1024), n_t=(64, 1024)),
       lambda rng, n_q, n_t: Case([n_q, n_t], [], [stochastic(rng, n_q, n_t),
                                                   randn(rng, n_t)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("geom_row_norms", dict(n=(64, 1024), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d)]),
       lambda c: [c.t(0).norm(dim=-1)]),
    Fn("geom_cosine_matrix", dict(n=(32, 512), m=(32, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [with_zero_row(rng, randn(rng, n, d)),
                                                 randn(rng, m, d)]),
       lambda c: [F.normalize(c.t(0), dim=-1) @ F.normalize(c.t(1), dim=-1).T]),
    Fn("geom_angle_degrees", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [angle_input(rng, n)]),
       lambda c: [torch.rad2deg(torch.acos(c.t(0).clamp(-1, 1)))]),

    # --- chapter 2: softmax.h -----------------------------------------------------
    # softmax_naive overflows by design for scores > ~88: small scores only
    Fn("softmax_naive", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [randn(rng, n, scale=3)]),
       lambda c: [c.t(0).softmax(-1)]),
    Fn("softmax", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [softmax_input(rng, n)]),
       lambda c: [c.t(0).softmax(-1)]),
    Fn("softmax_rows", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [softmax_input(rng, n, m)]),
       lambda c: [c.t(0).softmax(-1)]),
    # x / t is rounded to float before exp(), an error of ~6e-8 |x / t| in the
    # exponent; scores and temperatures keep |x / t| below ~100, so that stays
    # well within the standard tolerance
    Fn("softmax_rows_temp", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [log_uniform(rng, 0.05, 20)], [
           randn(rng, n, m, scale=rng.choice([0.3, 1.0, 3.0]))]),
       lambda c: [(c.t(0) / c.reals[0]).softmax(-1)]),
    Fn("softmax_rows_masked", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [softmax_input(rng, n, m),
                                           rand_mask(rng, n, m)]),
       lambda c: [masked_softmax(c.t(0), as_bool(c.ins[1]))]),
    Fn("softmax_jacobian", dict(n=(64, 512)),
       lambda rng, n: Case([n], [], [stochastic(rng, 1, n)[0]]),
       lambda c: [torch.autograd.functional.jacobian(
           lambda x: x.softmax(-1), torch.log(c.t(0)), vectorize=True)]),
    Fn("softmax_backward", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [stochastic(rng, 1, n)[0], randn(rng, n)]),
       ref_softmax_backward),

    # --- chapter 2: attention.h ---------------------------------------------------
    Fn("attention_scores", dict(n=(64, 512), m=(64, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [randn(rng, n, d), randn(rng, m, d)]),
       lambda c: [c.t(0) @ c.t(1).T / math.sqrt(c.ints[2])]),
    Fn("attention_combine", dict(n=(64, 512), m=(64, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [stochastic(rng, n, m),
                                                 randn(rng, m, d)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("attention_forward",
       dict(n=(64, 512), m=(64, 512), d_k=(64, 128), d_v=(64, 128)),
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m)]),
       lambda c: sdpa(c.t(0), c.t(1), c.t(2), as_bool(c.ins[3]))),

    # --- chapter 2: attn_stats.h --------------------------------------------------
    Fn("attn_row_entropy", dict(m=(300, 4096)),
       lambda rng, m: Case([m], [], [weights_matrix(rng, 1, m)[0]]),
       lambda c: [entr_rows(c.t(0)).reshape(1)]),
    Fn("attn_mean_entropy", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [weights_matrix(rng, n, m)]),
       lambda c: [entr_rows(c.t(0)).mean().reshape(1)]),
    Fn("attn_row_sum_error", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [weights_matrix(rng, n, m)]),
       lambda c: [(c.t(0).sum(-1) - 1).abs().max().reshape(1)]),
    Fn("attn_max_weight", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).max().reshape(1)], **EXACT),
    Fn("attn_min_weight", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).min().reshape(1)], **EXACT),
    Fn("attn_diag_strength", dict(n=(64, 1024)),
       lambda rng, n: Case([n], [], [weights_matrix(rng, n, n)]),
       lambda c: [c.t(0).diagonal().mean().reshape(1)]),
    Fn("attn_locality", dict(n=(64, 512), m=(64, 512), radius=(4, 600)),
       lambda rng, n, m, radius: Case([n, m, radius - 1], [], [
           weights_matrix(rng, n, m)]),
       ref_locality),
    Fn("attn_sparsity", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [f32(rng.uniform(0, 2) / m)], [
           weights_matrix(rng, n, m)]),
       lambda c: [(c.t(0) < c.reals[0]).double().mean().reshape(1)]),

    # --- chapter 2: dropout.h -----------------------------------------------------
    Fn("dropout_forward", dropout_spec, make_dropout, check=check_dropout,
       out_sizes=lambda c: [c.ints[0] * c.ints[1]] * 2),
    # the gradient of F.dropout with this keep mask, dy * keep / (1 - p);
    # F.dropout(p = 1) returns zeros, so its gradient is 0
    Fn("dropout_backward", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [[0.0, 1.0, 0.5][n % 3] if n < 4
                                 else f32(rng.uniform(0, 0.95))],
                           [randn(rng, n), (rng.random(n) < 0.5).astype(np.float32)]),
       lambda c: [c.t(0) * c.t(1) / (1 - c.reals[0]) if c.reals[0] < 1
                  else torch.zeros(c.ints[0])]),

    # --- chapter 2: spectral.h ----------------------------------------------------
    # status: iterations used (-1 = no convergence); an eigenvector's sign is
    # arbitrary, so run_entry() gives the reference the C result's sign
    Fn("spectral_power_iteration", dict(n=(64, 512)), make_power, ref_power,
       status=lambda c, s: s >= 1),
    Fn("spectral_max_abs_row_sum", dict(n=(64, 1024)),
       lambda rng, n: Case([n], [], [randn(rng, n, n)]),
       lambda c: [torch.linalg.matrix_norm(c.t(0), ord=INF).reshape(1)]),

    # --- chapter 3: linear.h ------------------------------------------------------
    Fn("linear_forward", dict(n=(64, 512), d_in=(64, 512), d_out=(64, 512)),
       lambda rng, n, d_in, d_out: Case([n, d_in, d_out], [], [
           randn(rng, n, d_in), xavier(rng, d_in, d_out),
           randn(rng, d_out) if rng.random() < 0.7 else None]),
       lambda c: [F.linear(c.t(0), c.t(1).T, c.t(2))]),
    # inputs x, w, dy and the starting dx, dw, db the gradients add to
    Fn("linear_backward", dict(n=(64, 512), d_in=(64, 512), d_out=(64, 512)),
       lambda rng, n, d_in, d_out: Case([n, d_in, d_out], [], [
           randn(rng, n, d_in), xavier(rng, d_in, d_out), randn(rng, n, d_out),
           randn(rng, n, d_in), randn(rng, d_in, d_out), randn(rng, d_out)]),
       ref_linear_backward),
    Fn("linear_init_uniform", init_spec, make_init(True), check=check_init("uniform"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),
    Fn("linear_init_normal", init_spec, make_init(True), check=check_init("normal"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),
    Fn("linear_init_xavier", init_spec, make_init(False), check=check_init("xavier"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),

    # --- chapter 3: self_attention.h, patterns.h ------------------------------------
    Fn("self_attn_simple", dict(n=(64, 512), d=(64, 256)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d, scale=d ** -0.25),
                                           rand_mask(rng, n, n)]),
       lambda c: sdpa(c.t(0), c.t(0), c.t(0), as_bool(c.ins[1]))),
    Fn("self_attn_forward", dict(n=(64, 512), d_model=(64, 128), d_k=(32, 64),
                                 d_v=(32, 64)),
       make_self_attn, ref_self_attn),
    Fn("pattern_measure", dict(n=(64, 512)),
       lambda rng, n: Case([n], [], [weights_matrix(rng, n, n)]),
       ref_pattern),

    # --- chapter 4: multihead.h ---------------------------------------------------
    Fn("mha_split_heads", HEADS,
       lambda rng, n, m, d, h: Case([n, h, d // h], [], [randn(rng, n, d)]),
       lambda c: [c.t(0).view(*c.ints).transpose(0, 1)], **EXACT),
    Fn("mha_concat_heads", HEADS,
       lambda rng, n, m, d, h: Case([n, h, d // h], [], [randn(rng, h, n, d // h)]),
       lambda c: [c.t(0).transpose(0, 1).reshape(c.ints[0], -1)], **EXACT),
    # against nn.MultiheadAttention loaded with the same weights
    Fn("mha_forward", HEADS, make_mha, ref_mha),
    Fn("mha_forward_loop", HEADS, make_mha, ref_mha),
    # nn.MultiheadAttention(d, h, bias=False) plus the output bias b_O
    Fn("mha_param_count", HEADS, lambda rng, n, m, d, h: Case([d, h]),
       lambda c: [torch.tensor([n_params(torch.nn.MultiheadAttention(
           *c.ints, bias=False, device="meta")) + c.ints[0]])], **EXACT),

    # --- chapter 4: layernorm.h, ffn.h, block.h -------------------------------------
    # rows far from 0 with a small spread, and every eps
    Fn("layernorm_forward", dict(n=(64, 512), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [f32(rng.choice([1e-5, 1e-5, 1e-6, 1e-3, 0.1]))],
                              [randn(rng, n, d, scale=rng.choice([1e-2, 1.0, 10.0]),
                                     mean=rng.choice([0.0, 0.0, 100.0]))]
                              + norm_weights(rng, d)),
       lambda c: [F.layer_norm(c.t(0), (c.ints[1],), c.t(1), c.t(2), c.reals[0])]),
    Fn("layernorm_add_norm", dict(n=(64, 512), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d), randn(rng, n, d)]
                              + norm_weights(rng, d)),
       lambda c: [F.layer_norm(c.t(0) + c.t(1), (c.ints[1],), c.t(2), c.t(3), 1e-5)]),
    # outputs: hidden = ReLU(x W_1 + b_1), then y
    Fn("ffn_forward", dict(n=(64, 512), d=(64, 256), f=(256, 1024)),
       lambda rng, n, d, f: Case([n, d, f], [], [randn(rng, n, d)]
                                 + ffn_weights(rng, d, f)),
       lambda c: [torch.relu(F.linear(c.t(0), c.t(1).T, c.t(2))),
                  ffn_module([c.t(k) for k in range(1, 5)], *c.ints[1:])(c.t(0))]),
    Fn("ffn_param_count", dict(d=(512, 1024), f=(2048, 4096)),
       lambda rng, d, f: Case([d, f]),
       lambda c: [torch.tensor([n_params(torch.nn.Sequential(
           torch.nn.Linear(*c.ints, device="meta"), torch.nn.ReLU(),
           torch.nn.Linear(*c.ints[::-1], device="meta")))])], **EXACT),
    # against nn.TransformerEncoderLayer / nn.TransformerDecoderLayer (post-norm,
    # ReLU, dropout 0) loaded with the same weights; d_ff is 1, 3 or 4 d_model
    Fn("encoder_block_forward", HEADS, make_encoder, ref_encoder),
    Fn("decoder_block_forward", HEADS, make_decoder, ref_decoder),
    # the torch layers' parameters less the input-projection biases, which the
    # library's attention does not have (3 d_model per attention layer)
    Fn("encoder_block_param_count", HEADS,
       lambda rng, n, m, d, h: Case([d, h, int(rng.choice([1, 3, 4 * d]))]),
       lambda c: [torch.tensor([n_params(torch.nn.TransformerEncoderLayer(
           *c.ints, device="meta")) - 3 * c.ints[0]])], **EXACT),
    Fn("decoder_block_param_count", HEADS,
       lambda rng, n, m, d, h: Case([d, h, int(rng.choice([1, 3, 4 * d]))]),
       lambda c: [torch.tensor([n_params(torch.nn.TransformerDecoderLayer(
           *c.ints, device="meta")) - 6 * c.ints[0]])], **EXACT),
]




def load_chapter_tables():
    """Append the TABLE of every cases_*.py beside this file, in name order."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "cases_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        TABLE.extend(mod.TABLE)


# ---------------------------------------------------------------------------
# Talking to the driver

def request(name, case, out_lens):
    ins = [np.zeros(0, "<f4") if a is None else np.ascontiguousarray(a, "<f4").ravel()
           for a in case.ins]
    nums = case.ints + [a.size for a in ins] + list(out_lens)
    head = (f"{name} {len(case.ints)} {len(case.reals)} {len(ins)} {len(out_lens)} "
            + " ".join(map(str, nums))).rstrip() + "\n"
    return b"".join([head.encode(), np.asarray(case.reals, "<f8").tobytes()]
                    + [a.tobytes() for a in ins])


def run_driver(driver, name, cases, out_lens):
    """Every case in one driver process -> (statuses, outputs of every case)."""
    req = b"".join(request(name, c, lens) for c, lens in zip(cases, out_lens))
    proc = subprocess.run([driver], input=req, capture_output=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"driver exited with status {proc.returncode}: "
                           + proc.stderr.decode(errors="replace").strip()[-400:])
    buf, pos, statuses, outs = proc.stdout, 0, [], []
    for lens in out_lens:
        statuses.append(int(np.frombuffer(buf, "<i4", 1, pos)[0]))
        pos += 4
        arrays = []
        for n in lens:
            arrays.append(np.frombuffer(buf, "<f4", n, pos).astype(np.float64))
            pos += 4 * n
        outs.append(arrays)
    if pos != len(buf):
        raise RuntimeError(f"driver answered {len(buf)} bytes, expected {pos}")
    return statuses, outs


def as_array(x):
    if isinstance(x, torch.Tensor):
        x = x.detach().double().numpy()
    return np.asarray(x, np.float64).ravel()


def run_entry(fn, driver):
    """-> (ok, cases, max |diff|, worst diff / tolerance or None, text, failures)"""
    rng = np.random.default_rng(zlib.crc32(fn.name.encode()))   # per-function seed
    cases = fn.cases(rng)
    if fn.check:
        statuses, outs = run_driver(driver, fn.name, cases,
                                    [fn.out_sizes(c) for c in cases])
        fails = [f"case {i} ({c}): status {s}" for i, (c, s) in
                 enumerate(zip(cases, statuses)) if not fn.status(c, s)]
        max_diff, text, more = fn.check(cases, statuses, outs)
        return not (fails + more), len(cases), max_diff, None, text, fails + more
    refs = [[as_array(r) for r in fn.ref(c)] for c in cases]
    statuses, outs = run_driver(driver, fn.name, cases, [[r.size for r in rs]
                                                         for rs in refs])
    fails, max_diff, worst = [], 0.0, 0.0
    for i, (case, status, got, want) in enumerate(zip(cases, statuses, outs, refs)):
        if not fn.status(case, status):
            fails.append(f"case {i} ({case}): returned status {status}")
            continue
        for k, (g, r) in enumerate(zip(got, want)):
            if fn.name == "spectral_power_iteration" and k == 1 and g @ r < 0:
                r = -r                  # an eigenvector's sign is arbitrary
            diff = np.abs(g - r)
            tol = fn.atol + fn.rtol * np.abs(r)
            bad = ~(diff <= tol)                  # NaN counts as bad
            if np.isfinite(diff).any():
                max_diff = max(max_diff, float(diff[np.isfinite(diff)].max()))
            if np.isnan(diff).any():
                worst = INF
            elif diff.size and tol.min() > 0:
                worst = max(worst, float((diff / tol).max()))
            if bad.any():
                j = int(np.argmax(bad))
                fails.append(f"case {i} ({case}): output {k} element {j} of {r.size}: "
                             f"expected {r[j]:.9g}, got {g[j]:.9g} "
                             f"(|diff| {diff[j]:.3g}, {int(bad.sum())} element(s) off)")
    text = f"max |diff| {max_diff:.1e}"
    if not (fn.atol or fn.rtol):
        text += " (exact)"
    elif worst < INF:
        text += f", {100 * worst:.0f}% of tolerance"
    return not fails, len(cases), max_diff, worst, text, fails


def write_summary(path, rows):
    with open(path + ".tmp", "w") as f:
        f.write("# PyTorch reference tests (tests/reference.sh): the largest\n"
                "# |C - torch| per function, and how much of its tolerance that is.\n")
        f.write(f"# {'function':<24} {'cases':>5} {'max |diff|':>10} {'of tol':>7}  "
                f"{'tolerance':<24} result\n")
        for name, n, md, worst, tol, res in rows:
            of = "-" if worst is None or worst == INF or tol == "exact" \
                else f"{100 * worst:.0f}%"
            f.write(f"{name:<26} {n:>5} {md:>10.2e} {of:>7}  {tol:<24} {res}\n")
    os.replace(path + ".tmp", path)


def main(argv):
    args, driver, tap, summary, only = list(argv[1:]), None, 1, None, []
    while args:
        a = args.pop(0)
        if a == "--tap-start":
            tap = int(args.pop(0))
        elif a == "--summary":
            summary = args.pop(0)
        elif driver is None:
            driver = a
        else:
            only.append(a)
    if driver is None:
        print("usage: " + __doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    load_chapter_tables()
    rows = []
    for name in only:
        if name not in {fn.name for fn in TABLE}:
            print(f"not ok {tap} - reference: no table entry named {name}")
            tap += 1
    for fn in TABLE:
        if only and fn.name not in only:
            continue
        try:
            ok, n, max_diff, worst, text, fails = run_entry(fn, driver)
        except Exception as e:          # the driver or a reference failed
            ok, n, max_diff, worst, text = False, 0, float("nan"), None, "error"
            fails = ([f"{type(e).__name__}: {e}"]
                     + traceback.format_exc().splitlines()[-6:])
        print(f"{'ok' if ok else 'not ok'} {tap} - {fn.name}: {n} shapes, {text}")
        for line in fails[:8]:
            print(f"# {line}")
        if len(fails) > 8:
            print(f"# ... and {len(fails) - 8} more")
        sys.stdout.flush()
        tap += 1
        tol = "statistical" if fn.check else "exact" if not (fn.atol or fn.rtol) \
            else f"{fn.atol:g} + {fn.rtol:g} |ref|"
        rows.append((fn.name, n, max_diff, worst, tol, "ok" if ok else "FAIL"))
    if summary:
        write_summary(summary, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
