#!/usr/bin/env python3
"""The f32 coefficients of Expm1Reduced and Log1pFromSFitted (kernels/expm1-inl.h).

Rerun: python3 scripts/fit_expm1_log1p.py (needs mpmath: pip install mpmath; nothing in the
build runs it; a few seconds). It prints each table as a C++ initialiser, lowest degree
first, and the largest relative error of the function with the f32-rounded coefficients (in
exact arithmetic, over 4001 points), which the header's comments quote.

  kExpm1P  expm1(r) = r + r^2 P(r) on |r| <= ln2 / 2 (plus a margin for the reduction's
           rounding): P of degree 4, minimax relative error of expm1.
  kLog1pQ  log1p(g) = 2 atanh(s / 2) = s + s u Q(u), u = s^2, on s in [0, 2/3] (g in [0, 1],
           s = 2g / (2 + g)): Q of degree 4, minimax relative error of log1p.

The fit and the sequential rounding to f32 are scripts/fit_normal_tail.py's (Lawson's
reweighting towards the minimax; each coefficient rounded lowest degree first, the others
refitted).
"""
import struct

import mpmath as mp

mp.mp.dps = 40


def f32(v):
    return mp.mpf(struct.unpack("f", struct.pack("f", float(v)))[0])


def nodes(lo, hi, n):
    inner = [(1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / n)) / 2 for i in range(n)]
    return [lo + (hi - lo) * u for u in inner] + [lo, hi]


def lawson(rows, rhs, free, fixed, iters=25):
    w = [mp.mpf(1)] * len(rows)
    for _ in range(iters):
        a = [[mp.sqrt(w[i]) * rows[i][j] for j in free] for i in range(len(rows))]
        b = [mp.sqrt(w[i]) * (rhs[i] - mp.fsum(rows[i][j] * v for j, v in fixed.items()))
             for i in range(len(rows))]
        sol = mp.qr_solve(mp.matrix(a), mp.matrix(b))[0]
        coef = dict(fixed)
        coef.update({j: sol[k] for k, j in enumerate(free)})
        res = [abs(mp.fsum(rows[i][j] * coef[j] for j in coef) - rhs[i]) for i in range(len(rows))]
        top = max(res)
        w = [w[i] * (res[i] / top + mp.mpf(10) ** -8) for i in range(len(rows))]
        total = mp.fsum(w)
        w = [x / total * len(w) for x in w]
    return [coef[j] for j in range(len(rows[0]))]


def round_sequentially(fit, n):
    fixed = {}
    for j in range(n):
        fixed[j] = f32(fit(fixed)[j])
    return [fixed[j] for j in range(n)]


def horner(c, x):
    s = mp.mpf(0)
    for v in reversed(c):
        s = s * x + v
    return s


def fit_poly(f, lo, hi, deg, var, weight):
    """Minimax of weight(x) (poly(var(x)) - f(x)) with f32 coefficients."""
    pts = nodes(lo, hi, 120)
    vals = [f(x) for x in pts]

    def fit(fx):
        rows = [[var(x) ** j * weight(x) for j in range(deg + 1)] for x in pts]
        rhs = [vals[i] * weight(x) for i, x in enumerate(pts)]
        return lawson(rows, rhs, [j for j in range(deg + 1) if j not in fx], fx)

    return round_sequentially(fit, deg + 1)


def grid(lo, hi):
    return (lo + (hi - lo) * mp.mpf(i) / 4000 for i in range(4001))


def show(name, c, err):
    print(f"{name} = {{{', '.join(repr(float(v)) + 'f' for v in c)}}};")
    print(f"  // max relative error {mp.nstr(err, 3)} = 2^{mp.nstr(mp.log(err, 2), 4)}")


h = mp.log(2) / 2 * mp.mpf("1.0001")
p = fit_poly(lambda r: (mp.expm1(r) - r) / (r * r) if r else mp.mpf(1) / 2, -h, h, 4,
             lambda r: r, lambda r: r * r / mp.expm1(r) if r else 0)
show("kExpm1P", p, max(abs((r + r * r * horner(p, r)) / mp.expm1(r) - 1) for r in grid(-h, h) if r))

s_hi = mp.mpf(2) / 3 * mp.mpf("1.0001")


def log1p_of_s(s):
    return 2 * mp.atanh(s / 2)


q = fit_poly(lambda s: (log1p_of_s(s) - s) / s ** 3 if s else mp.mpf(1) / 12, mp.mpf(0), s_hi, 4,
             lambda s: s * s, lambda s: s ** 3 / log1p_of_s(s) if s else 0)
show("kLog1pQ", q, max(abs((s + s ** 3 * horner(q, s * s)) / log1p_of_s(s) - 1)
                       for s in grid(mp.mpf(0), s_hi) if s))
