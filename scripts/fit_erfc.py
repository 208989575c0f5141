#!/usr/bin/env python3
"""The Chebyshev coefficients of NormalTailF64 (kernels/f64_lanes-inl.h).

erfc(z) = t exp(-z^2 + g(t)) with t = 2 / (2 + z); g is smooth on t in [1/16, 1] (z in
[0, 30]) and is interpolated at the 19 Chebyshev nodes of that interval in 40-digit
arithmetic. Prints the coefficients (the first halved, as Clenshaw's sum takes it) and the
largest error of their double-precision Clenshaw sum against g over 4001 points.
Needs mpmath (pip install mpmath); nothing in the build runs it.
"""
import mpmath as mp

mp.mp.dps = 40
A, B, N = mp.mpf(1) / 16, mp.mpf(1), 18


def g(t):
    z = 2 / t - 2
    return mp.log(mp.erfc(z) / t) + z * z


def chebyshev(n):
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
    values = [g((B - A) / 2 * y + (B + A) / 2) for y in nodes]
    c = [2 * mp.fsum(values[k] * mp.cos(mp.pi * j * (k + mp.mpf(1) / 2) / (n + 1))
                     for k in range(n + 1)) / (n + 1) for j in range(n + 1)]
    c[0] /= 2
    return c


def clenshaw(c, y):
    b1 = b2 = 0.0
    for ck in reversed(c[1:]):
        b1, b2 = 2 * y * b1 - b2 + ck, b1
    return y * b1 - b2 + c[0]


coefficients = [float(x) for x in chebyshev(N)]
worst = max(abs(clenshaw(coefficients, float((2 * t - (B + A)) / (B - A))) - g(t))
            for t in (A + (B - A) * mp.mpf(i) / 4000 for i in range(4001)))
print("kG =", ", ".join(repr(c) for c in coefficients))
print("max |error| of g:", float(worst))
