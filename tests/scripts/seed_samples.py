#!/usr/bin/env python3
"""ctest seed_samples and install_cann_*: the sample program of each CANN seed document,
compiled UNCHANGED against the installed hostnn, run, and its printed results checked
against values computed here in double precision from the sample's own inputs. Built with
-lhostnn (--mode hostnn), or as a CANN user builds it: in an empty environment holding only
what <prefix>/set_env.sh exports, with ops-nn's g++ line or examples/cann_project.
--extract DIR only writes the programs. Exit 77 (skipped) without the seeds."""

import argparse
import math
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys

SKIP = 77
ARGS = None  # the parsed command line

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


# The eager-mode build line of ops-nn's `build.sh --run_example`, as a CANN user types it
# after `source <toolkit>/set_env.sh`.
CANN_GXX_LINE = ("g++ {src} -I ${{ASCEND_HOME_PATH}}/include -I ${{ASCEND_HOME_PATH}}/include/aclnnop "
                 "-I ${{ASCEND_HOME_PATH}}/include/aclnn -L ${{ASCEND_OPP_PATH}}/lib64 "
                 "-L ${{ASCEND_HOME_PATH}}/lib64 -lopapi_nn -lopapi_math -lascendcl -lnnopbase -o {exe}")


def clean_env(prefix, script):
    """Runs a bash script in an empty environment holding only what set_env.sh exports."""
    return ["env", "-i", "bash", "-c",
            "source " + shlex.quote(os.path.join(prefix, "set_env.sh")) + " && " + script]


def sample_name(md_name):
    """ops-nn's name for the sample of a seed: test_aclnn_silu_backward.cpp."""
    return "test_aclnn_" + SEEDS[md_name][0] + "_backward"


def extract(directory):
    """Writes each seed's sample program, unchanged, as test_aclnn_<op>_backward.cpp."""
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for md_name in SEEDS:
        path = os.path.join(directory, sample_name(md_name) + ".cpp")
        with open(path, "wb") as f:
            f.write(sample_source(os.path.join(ARGS.seeds, md_name)))
        paths[md_name] = path
    return paths


def build_sample(md_name, code):
    """Builds one sample the way --mode says; returns (the command that runs it, failures)."""
    stem = sample_name(md_name) if ARGS.mode != "hostnn" else os.path.splitext(md_name)[0]
    src_path = os.path.join(ARGS.work, stem + (".cc" if ARGS.mode == "hostnn" else ".cpp"))
    exe_path = os.path.join(ARGS.work, stem)
    if ARGS.mode == "cann-gxx-no-prefix":
        # Some sources name the operator header without its folder.
        code = code.replace(b'#include "aclnnop/', b'#include "')
    with open(src_path, "wb") as f:
        f.write(code)
    if ARGS.mode == "hostnn":
        compile_cmd = [ARGS.cxx, "-std=c++17", "-O1", src_path, "-o", exe_path,
                       "-I" + os.path.join(ARGS.prefix, ARGS.includedir)]
        compile_cmd += link_flags(ARGS.prefix, ARGS.libdir)
        run_cmd = [exe_path]
    else:
        line = CANN_GXX_LINE.format(src=stem + ".cpp", exe=stem)
        compile_cmd = clean_env(ARGS.prefix, "cd " + shlex.quote(ARGS.work) + " && " + line)
        run_cmd = clean_env(ARGS.prefix, "exec " + shlex.quote(exe_path))
        print("$ env -i bash; source set_env.sh; " + line)
    built = subprocess.run(compile_cmd, capture_output=True, text=True)
    if built.returncode != 0:
        print(" ".join(compile_cmd))
        print(built.stdout + built.stderr)
        return None, [f"{md_name}: the sample does not compile against the install"]
    return run_cmd, []


def check_run(md_name, code, run_cmd):
    op, dy_name, x_name = SEEDS[md_name]
    ran = subprocess.run(run_cmd, capture_output=True, text=True, timeout=60)
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


def run_seed(md_name):
    code = sample_source(os.path.join(ARGS.seeds, md_name))
    run_cmd, failures = build_sample(md_name, code)
    if run_cmd is None:
        return failures
    return check_run(md_name, code, run_cmd)


def run_cmake_project():
    """examples/cann_project configured, built and run in the clean environment."""
    samples = extract(os.path.join(ARGS.work, "samples"))
    build = os.path.join(ARGS.work, "build")
    shutil.rmtree(build, ignore_errors=True)
    script = (f"{shlex.quote(ARGS.cmake)} -S {shlex.quote(ARGS.project)} -B {shlex.quote(build)} "
              f"-DSAMPLES_DIR={shlex.quote(os.path.dirname(samples[next(iter(SEEDS))]))} && "
              f"{shlex.quote(ARGS.cmake)} --build {shlex.quote(build)}")
    print("$ env -i bash; source set_env.sh; cmake -S examples/cann_project ...; cmake --build ...")
    built = subprocess.run(clean_env(ARGS.prefix, script), capture_output=True, text=True)
    print(built.stdout[-3000:] + built.stderr[-3000:])
    if built.returncode != 0:
        return ["examples/cann_project does not configure or build in the clean environment"]
    failures = []
    for md_name, path in samples.items():
        with open(path, "rb") as f:
            code = f.read()
        exe = os.path.join(build, sample_name(md_name))
        failures += check_run(md_name, code, clean_env(ARGS.prefix, "exec " + shlex.quote(exe)))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--prefix")
    parser.add_argument("--libdir", default="lib")
    parser.add_argument("--includedir", default="include")
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--work")
    parser.add_argument("--mode", default="hostnn",
                        choices=["hostnn", "cann-gxx", "cann-gxx-no-prefix", "cann-cmake"],
                        help="hostnn: link -lhostnn; cann-*: in `env -i` after sourcing the "
                             "prefix's set_env.sh, CANN's g++ line (with or without the aclnnop/ "
                             "include folder) or examples/cann_project")
    parser.add_argument("--project", help="cann-cmake: the CMake project to build")
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--extract", metavar="DIR",
                        help="only write the sample programs to DIR, as test_aclnn_<op>.cpp")
    global ARGS
    ARGS = args = parser.parse_args()
    if not os.path.isdir(args.seeds):
        print(f"seed documents not found at {args.seeds}: skipped")
        return SKIP
    missing = [m for m in SEEDS if not os.path.exists(os.path.join(args.seeds, m))]
    if missing:
        print("FAIL missing from " + args.seeds + ": " + ", ".join(missing))
        return 1
    if args.extract:
        for path in extract(args.extract).values():
            print(path)
        return 0
    if args.work is None or args.prefix is None:
        parser.error("--prefix and --work are required")
    os.makedirs(args.work, exist_ok=True)
    failures = []
    try:
        if args.mode == "cann-cmake":
            failures += run_cmake_project()
        else:
            for md_name in SEEDS:
                failures += run_seed(md_name)
    except (ValueError, OSError, subprocess.TimeoutExpired) as e:
        failures.append(str(e))
    for f in failures:
        print("FAIL " + f)
    print("seed_samples: " + ("OK" if not failures else f"{len(failures)} failure(s)"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
