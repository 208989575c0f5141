#!/usr/bin/env python3
"""PyTorch (ATen) on the speed table's cases, as a peer beside hostnn-scale's numbers.

Optional and bench-only: runs where `import torch` works (Debian: python3-torch, 1.13),
and prints ns per element, medians of --samples samples of at least --sample-ms each, for
aten's silu_backward, log_sigmoid_backward, hardsigmoid_backward and
_log_softmax_backward_data at 1 and 2 threads (torch.set_num_threads). Each call writes a preallocated
output (the ops' out= overloads), as hostnn's do: a fresh 256 MiB tensor per call would
time the page faults of its first touch instead of the kernel.
  usage: bench/torch_peer.py [--threads 1,2] [--samples 11] [--sample-ms 4]
"""
import argparse
import statistics
import sys
import time

try:
    import torch
except ImportError:
    sys.exit("torch_peer.py: PyTorch is not installed (python3-torch)")

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def sample_ns_per_elem(fn, elements, sample_ms, samples):
    fn()
    reps = 1
    while True:  # enough calls that one sample lasts sample_ms
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        if time.perf_counter() - t0 >= sample_ms / 1e3:
            break
        reps *= 2
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return statistics.median(times) * 1e9 / elements


def cases():
    for n in (262144, 67108864):
        for op in ("silu", "hardsigmoid", "logsigmoid"):
            for dt in ("f32", "bf16"):
                yield op, dt, (n,), None
    for dt in ("f32", "bf16"):
        yield "logsoftmax", dt, (4096, 1024), -1
        yield "logsoftmax", dt, (1024, 4096), 0
    yield "silu", "f32", (4096,), None


def make(op, dtype, shape, dim):
    g = torch.Generator().manual_seed(7)
    dy = (torch.rand(shape, generator=g) * 2 - 1).to(dtype)
    out = torch.empty(shape, dtype=dtype)
    if op == "logsoftmax":
        y = torch.log_softmax(torch.rand(shape, generator=g) * 16 - 8, dim).to(dtype)
        return lambda: torch.ops.aten._log_softmax_backward_data.out(dy, y, dim, dtype, out=out)
    x = (torch.rand(shape, generator=g) * 24 - 12).to(dtype)
    if op == "silu":
        return lambda: torch.ops.aten.silu_backward.grad_input(dy, x, grad_input=out)
    if op == "hardsigmoid":
        return lambda: torch.ops.aten.hardsigmoid_backward.grad_input(dy, x, grad_input=out)
    # ATen's log_sigmoid_backward reads the forward's buffer (exp(-|x|) for x < 0, kept
    # from the forward pass) instead of computing an exp.
    buffer = torch.ops.aten.log_sigmoid_forward(x)[1]
    return lambda: torch.ops.aten.log_sigmoid_backward.grad_input(dy, x, buffer, grad_input=out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--samples", type=int, default=11)
    ap.add_argument("--sample-ms", type=float, default=4.0)
    args = ap.parse_args()
    print(f"PyTorch {torch.__version__}, CPU capability "
          f"{torch.backends.cpu.get_cpu_capability() if hasattr(torch.backends, 'cpu') else '?'}")
    print(f"{'op':<12} {'dtype':<5} {'shape':<14} {'dim':>4} {'thr':>4} {'ns/elem':>9}")
    for op, dt, shape, dim in cases():
        try:
            fn = make(op, DTYPES[dt], shape, dim)
            fn()
        except RuntimeError as e:  # a dtype the CPU kernels lack
            print(f"{op:<12} {dt:<5} {str(list(shape)):<14} {'' if dim is None else dim:>4}  "
                  f"not supported: {str(e).splitlines()[0][:60]}")
            continue
        elements = 1
        for s in shape:
            elements *= s
        for t in (int(v) for v in args.threads.split(",")):
            torch.set_num_threads(t)
            ns = sample_ns_per_elem(fn, elements, args.sample_ms, args.samples)
            shape_text = str(list(shape)).replace(" ", "")
            extra = f"  ({ns * elements / 1e3:.2f} us a call)" if elements <= 4096 else ""
            print(f"{op:<12} {dt:<5} {shape_text:<14} {'' if dim is None else dim:>4} {t:>4} "
                  f"{ns:9.4f}{extra}", flush=True)


if __name__ == "__main__":
    main()
