#!/usr/bin/env python3
"""The f32 coefficients of kernels/normal_tail-inl.h (GeluErf and GeluErfBackward).

Rerun: python3 scripts/fit_normal_tail.py (needs mpmath: pip install mpmath; nothing in the
build runs it; about a minute). It prints the four coefficient tables as C++ initialisers and,
for each, the largest relative error of the function with the f32-rounded coefficients (in
exact arithmetic, over 4001 points), which the header's comments quote.

  kMills   the Mills ratio M(a) = Q(a) / phi(a) = erfc(a / sqrt 2) exp(a^2 / 2) sqrt(pi / 2)
           on a in [0.5, 20], as P(a) / (a P(a) + N(a)): P of degree 5 with P(0) = 1, N of
           degree 4 (so that M ~ 1 / a, its asymptote). The fit weights the error of
           H = N / P by 1 / (a + H), M's relative error, and is linearised around the last
           P (Loeb's iteration) with Lawson's reweighting towards the minimax.
  kExpM1   exp(r) = 1 + r E(r) on |r| <= ln2 / 2 (plus a margin for the reduction's rounding):
           E of degree 5 with E(0) = 1, minimax relative error of exp.
  kPhiSmall  S(v), v = x^2, with Phi(x) = 1/2 + x S(x^2) for |x| < 0.5 (degree 4).
  kSlopeSmall  T(v) with Phi(x) + x phi(x) = 1/2 + x T(x^2) for |x| < 0.5 (degree 4).

The coefficients are rounded to f32 one at a time, lowest degree first, each time refitting
the ones not yet rounded, so the rounding of the leading ones is absorbed by the others.
"""
import struct

import mpmath as mp

mp.mp.dps = 40
SQRT2 = mp.sqrt(2)
C = 1 / mp.sqrt(2 * mp.pi)  # phi(0)


def f32(v):
    return mp.mpf(struct.unpack("f", struct.pack("f", float(v)))[0])


def nodes(lo, hi, n):
    inner = [(1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / n)) / 2 for i in range(n)]
    return [lo + (hi - lo) * u for u in inner] + [lo, hi]


def lawson(rows, rhs, free, fixed, iters=25):
    """Minimax (by Lawson's reweighting) of the linear residuals sum_j rows[i][j] c_j - rhs[i]
    over the columns in free; the columns in fixed (index -> value) are constants."""
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


def round_sequentially(fit, n, fixed):
    """fit(fixed) -> coefficients; rounds them to f32 lowest index first."""
    fixed = dict(fixed)
    for j in range(n):
        if j not in fixed:
            fixed[j] = f32(fit(fixed)[j])
    return [fixed[j] for j in range(n)]


def horner(c, x):
    s = mp.mpf(0)
    for v in reversed(c):
        s = s * x + v
    return s


def mills(a):
    return mp.erfc(a / SQRT2) * mp.exp(a * a / 2) * mp.sqrt(mp.pi / 2)


def fit_mills():
    lo, hi, deg_p, deg_n = mp.mpf("0.5"), mp.mpf(20), 5, 4
    pts = nodes(lo, hi, 160)
    h = [1 / mills(a) - a for a in pts]  # H = N / P
    scale = hi  # fit in u = a / 20, well conditioned; converted back below

    def fit(fixed):
        # coefficients of a: index 0..deg_n for N, deg_n+1.. for P's degrees 0..deg_p
        fixed_u = {j: v * scale ** (j if j <= deg_n else j - deg_n - 1) for j, v in fixed.items()}
        p_prev = [mp.mpf(1)] * len(pts)
        for _ in range(4):
            rows, rhs = [], []
            for i, a in enumerate(pts):
                u = a / scale
                wt = 1 / (p_prev[i] * (a + h[i]))
                rows.append([wt * u ** j for j in range(deg_n + 1)] +
                            [-wt * h[i] * u ** j for j in range(deg_p + 1)])
                rhs.append(mp.mpf(0))
            free = [j for j in range(len(rows[0])) if j not in fixed_u]
            c = lawson(rows, rhs, free, fixed_u, iters=12)
            p_prev = [horner(c[deg_n + 1:], a / scale) for a in pts]
        return [v / scale ** (j if j <= deg_n else j - deg_n - 1) for j, v in enumerate(c)]

    c = round_sequentially(fit, deg_n + deg_p + 2, {deg_n + 1: mp.mpf(1)})
    n, p = c[:deg_n + 1], c[deg_n + 1:]
    err = max(abs(horner(p, a) / (a * horner(p, a) + horner(n, a)) / mills(a) - 1)
              for a in (lo + (hi - lo) * mp.mpf(i) / 4000 for i in range(4001)))
    return n, p, err


def fit_poly(f, lo, hi, deg, var, weight):
    """Minimax of weight(x) (poly(var(x)) - f(x)); returns the coefficients and that maximum."""
    pts = nodes(lo, hi, 120)
    vals = [f(x) for x in pts]

    def fit(fx):
        rows = [[var(x) ** j * weight(x) for j in range(deg + 1)] for x in pts]
        rhs = [vals[i] * weight(x) for i, x in enumerate(pts)]
        return lawson(rows, rhs, [j for j in range(deg + 1) if j not in fx], fx)

    c = round_sequentially(fit, deg + 1, {})
    err = max(abs((horner(c, var(x)) - f(x)) * weight(x))
              for x in (lo + (hi - lo) * mp.mpf(i) / 4000 for i in range(4001)))
    return c, err


def show(name, c, err, what="relative error"):
    print(f"{name} = {{{', '.join(repr(float(v)) + 'f' for v in c)}}};")
    print(f"  // max {what} {mp.nstr(err, 3)} = 2^{mp.nstr(mp.log(err, 2), 4)}")


n, p, err = fit_mills()
show("kMillsN", n, err)
show("kMillsP", p, err)
# exp(r) = 1 + r E(r), E(r) = 1 + r G(r): G fitted to exp's relative error.
half_ln2 = mp.log(2) / 2 * mp.mpf("1.0001")
g, _ = fit_poly(lambda r: (mp.expm1(r) / r - 1) / r if r else mp.mpf(1) / 2, -half_ln2, half_ln2,
                4, lambda r: r, lambda r: r * r / mp.exp(r))
e = [mp.mpf(1)] + g  # E(r) = 1 + r G(r)
err = max(abs((1 + r * horner(e, r)) / mp.exp(r) - 1)
          for r in (-half_ln2 + 2 * half_ln2 * mp.mpf(i) / 4000 for i in range(4001)))
show("kExpM1", e, err)
# Phi(x) = 1/2 + x S(x^2) and Phi(x) + x phi(x) = 1/2 + x T(x^2) for |x| < 0.5: the error that
# matters is the absolute one of x S (x T), next to the 1/2 it is added to.
small = mp.mpf("0.5")
s, err = fit_poly(lambda x: mp.erf(x / SQRT2) / (2 * x) if x else C, mp.mpf(0), small, 4,
                  lambda x: x * x, lambda x: x)
show("kPhiSmall", s, err, "|x| times the error")
t, err = fit_poly(lambda x: (mp.erf(x / SQRT2) / (2 * x) if x else C) + C * mp.exp(-x * x / 2),
                  mp.mpf(0), small, 4, lambda x: x * x, lambda x: x)
show("kSlopeSmall", t, err, "|x| times the error")
