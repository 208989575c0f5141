#!/usr/bin/env python3
"""ctest seed_samples: the sample program of each CANN seed document, compiled UNCHANGED
against the installed hostnn, run, and its printed results checked against values computed
here in double precision from the sample's own inputs. Exit 77 (skipped) without the seeds."""

import argparse
import math
import os
import re
import struct
import subprocess
import sys

SKIP = 77

# Per seed document: the operator, and the names of the sample's input vectors.
SEEDS = {
    "aclnnSiluBackward.md": ("silu", "gradOutHostData", "selfHostData"),
    "aclnnLogSigmoidBackward.md": ("logsigmoid", "gradOutputHostData", "selfHostData"),
    "aclnnHardsigmoidBackward.md": ("hardsigmoid", "gradOutHostData", "selfHostData"),
    "aclnnLogSoftmaxBackward.md": ("logsoftmax", "gradOutputHostData", "outputHostData"),
}
PRINT_ABS = 1e-6  # the samples print with %f: 6 decimals
TWO_POW_M21 = 2.0**-21


def f32(v):
    """v rounded to the nearest float32, as the sample stores it."""
    return struct.unpack("f", struct.pack("f", v))[0]


def ulp_f32(v):
    if v == 0.0 or not math.isfinite(v):
        return 2.0**-149
    _, e = math.frexp(abs(v))  # |v| = m * 2^e, m in [0.5, 1)
    return 2.0 ** max(e - 24, -149)


def sample_source(md_path):
    """The ```Cpp block that holds `int main`, byte for byte."""
    with open(md_path, "rb") as f:
        text = f.read()
    blocks = re.findall(rb"```Cpp[ \t]*\r?\n(.*?)```", text, re.S)
    mains = [b for b in blocks if re.search(rb"\bint\s+main\s*\(", b)]
    if len(mains) != 1:
        raise ValueError(f"{md_path}: expected one ```Cpp block with int main, found {len(mains)}")
    return mains[0]


def float_vector(src, name):
    m = re.search(r"std::vector<float>\s+" + name + r"\s*=\s*\{([^}]*)\}", src)
    if m is None:
        raise ValueError(f"the sample has no `std::vector<float> {name} = {{...}}`")
    return [f32(float(v)) for v in m.group(1).split(",") if v.strip()]


def int_vector(src, name):
    m = re.search(r"std::vector<int64_t>\s+" + name + r"\s*=\s*\{([^}]*)\}", src)
    if m is None:
        raise ValueError(f"the sample has no `std::vector<int64_t> {name} = {{...}}`")
    return [int(v) for v in m.group(1).split(",") if v.strip()]


def expected(op, src, dy_name, x_name):
    """(exact value, allowed error) per output element, from the sample's inputs."""
    dy = float_vector(src, dy_name)
    x = float_vector(src, x_name)
    if len(dy) != len(x):
        raise ValueError(f"{dy_name} and {x_name} differ in length")
    out = []
    if op == "logsoftmax":
        shape = int_vector(src, "gradOutputShape")
        m = re.search(r"int64_t\s+dim\s*=\s*(-?\d+)\s*;", src)
        if m is None:
            raise ValueError("the sample has no `int64_t dim = ...;`")
        dim = int(m.group(1))
        rank = max(len(shape), 1)
        dim = dim + rank if dim < 0 else dim
        a1 = math.prod(shape[:dim])
        r = shape[dim] if shape else 1
        a0 = math.prod(shape[dim + 1:])
        if a1 * r * a0 != len(dy):
            raise ValueError("gradOutputShape does not match the data")
        out = [None] * len(dy)
        for i in range(a1):
            for k in range(a0):
                idx = [(i * r + j) * a0 + k for j in range(r)]
                total = sum(dy[t] for t in idx)
                abs_total = sum(abs(dy[t]) for t in idx)
                for t in idx:
                    exact = dy[t] - math.exp(x[t]) * total
                    tol = TWO_POW_M21 * (abs(dy[t]) + math.exp(x[t]) * abs_total)
                    out[t] = (exact, tol)
        return out
    for g, v in zip(dy, x):
        if op == "silu":
            s = 1.0 / (1.0 + math.exp(-v))
            exact = g * s * (1.0 + v * (1.0 - s))
        elif op == "logsigmoid":
            exact = g / (1.0 + math.exp(v))
        elif op == "hardsigmoid":
            exact = g / 6.0 if -3.0 < v < 3.0 else 0.0
        else:
            raise ValueError(op)
        out.append((exact, max(4 * ulp_f32(exact), TWO_POW_M21 * abs(g))))
    return out


def link_flags(prefix, libdir):
    lib = os.path.join(prefix, libdir)
    flags = ["-L" + lib, "-Wl,-rpath," + lib, "-lhostnn"]
    if not os.path.exists(os.path.join(lib, "libhostnn.so")):
        # A static hostnn: its private dependencies, as its pkg-config file lists them.
        with open(os.path.join(lib, "pkgconfig", "hostnn.pc")) as f:
            for line in f:
                if line.startswith("Libs.private:"):
                    flags += line.split(":", 1)[1].split()
        flags.append("-lpthread")
    return flags


def run_seed(md_name, args):
    op, dy_name, x_name = SEEDS[md_name]
    code = sample_source(os.path.join(args.seeds, md_name))
    stem = os.path.splitext(md_name)[0]
    src_path = os.path.join(args.work, stem + ".cc")
    exe_path = os.path.join(args.work, stem)
    with open(src_path, "wb") as f:
        f.write(code)  # unchanged
    compile_cmd = [args.cxx, "-std=c++17", "-O1", src_path, "-o", exe_path,
                   "-I" + os.path.join(args.prefix, args.includedir)]
    compile_cmd += link_flags(args.prefix, args.libdir)
    built = subprocess.run(compile_cmd, capture_output=True, text=True)
    if built.returncode != 0:
        print(" ".join(compile_cmd))
        print(built.stdout + built.stderr)
        return [f"{md_name}: the sample does not compile against the install"]
    ran = subprocess.run([exe_path], capture_output=True, text=True, timeout=60)
    print(f"--- {md_name} ({op}), exit {ran.returncode}")
    print(ran.stdout.rstrip())
    failures = []
    if ran.returncode != 0:
        failures.append(f"{md_name}: the sample exited with {ran.returncode}: {ran.stderr}")
    got = {int(i): float(v) for i, v in
           re.findall(r"result\[(\d+)\] is: (\S+)", ran.stdout)}
    want = expected(op, code.decode("utf-8", "replace"), dy_name, x_name)
    if sorted(got) != list(range(len(want))):
        failures.append(f"{md_name}: printed indices {sorted(got)}, expected 0..{len(want) - 1}")
        return failures
    for i, (exact, tol) in enumerate(want):
        if not abs(got[i] - exact) <= PRINT_ABS + tol:
            failures.append(f"{md_name}: result[{i}] = {got[i]:.6f}, expected {exact:.6f}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--libdir", default="lib")
    parser.add_argument("--includedir", default="include")
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    if not os.path.isdir(args.seeds):
        print(f"seed documents not found at {args.seeds}: skipped")
        return SKIP
    os.makedirs(args.work, exist_ok=True)
    failures = []
    for md_name in SEEDS:
        if not os.path.exists(os.path.join(args.seeds, md_name)):
            failures.append(f"{md_name}: missing from {args.seeds}")
            continue
        try:
            failures += run_seed(md_name, args)
        except (ValueError, OSError, subprocess.TimeoutExpired) as e:
            failures.append(f"{md_name}: {e}")
    for f in failures:
        print("FAIL " + f)
    print("seed_samples: " + ("OK" if not failures else f"{len(failures)} failure(s)"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
