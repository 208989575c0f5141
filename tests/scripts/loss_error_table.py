#!/usr/bin/env python3
"""The losses' measured error table (docs/loss_embedding_family.md, "Measured errors").

Runs the loss suites of a build with HOSTNN_LOSS_ERRORS naming a file: each suite appends,
as it exits, the largest error of the elements it checked against its long-double reference,
per operator, output and output dtype (tests/util/loss_check.h, LossErrorTable). Prints the
merged table; with --write it also replaces the page below its marker line. Exits 1 when a
suite fails or an error passes its bound.

    python3 tests/scripts/loss_error_table.py build [--write]
"""
import os
import subprocess
import sys
import tempfile

SUITES = ["mse_loss_test", "bce_with_logits_test", "nll_loss_test", "cross_entropy_loss_test",
          "softmax_cross_entropy_with_logits_test"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "loss_embedding_family.md")
MARKER = ("<!-- Generated below this line by tests/scripts/loss_error_table.py "
          "(python3 tests/scripts/loss_error_table.py build --write); edit above it only. -->")
DTYPES = ["FLOAT", "FLOAT16", "BFLOAT16", "DOUBLE"]


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    build = args[0]
    cells = {}  # (op, output, dtype) -> [max ulp, max ratio, elements]
    order = []  # operators in the suites' order
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for suite in SUITES:
            rows = os.path.join(tmp, suite + ".tsv")
            env = dict(os.environ, HOSTNN_LOSS_ERRORS=rows)
            run = subprocess.run([os.path.join(build, "tests", suite)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if run.returncode != 0:
                print(run.stdout[-4000:])
                print(f"{suite}: failed (exit {run.returncode})", file=sys.stderr)
                failed = True
            if not os.path.exists(rows):
                continue
            for line in open(rows):
                op, output, dtype, ulp, ratio, n = line.rstrip("\n").split("\t")
                if op not in order:
                    order.append(op)
                c = cells.setdefault((op, output, dtype), [0.0, 0.0, 0])
                c[0] = max(c[0], float(ulp))
                c[1] = max(c[1], float(ratio))
                c[2] += int(n)
    lines = ["| Operator | Output | dtype | Values checked | Largest error (ULP) | "
             "Largest error / bound |", "|---|---|---|---:|---:|---:|"]
    for (op, output, dtype), (ulp, ratio, n) in sorted(
            cells.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1],
                                           DTYPES.index(kv[0][2]) if kv[0][2] in DTYPES else 9)):
        lines.append(f"| {op} | {output} | {dtype} | {n} | {ulp:.3g} | {ratio:.4f} |")
        if ratio > 1.0:
            print(f"{op} {output} {dtype}: error / bound {ratio} > 1", file=sys.stderr)
            failed = True
    table = "\n".join(lines) + "\n"
    print(table, end="")
    if "--write" in sys.argv[1:]:
        page = open(PAGE, encoding="utf-8").read()
        at = page.find(MARKER)
        if at < 0:
            print(f"{PAGE} has no marker line", file=sys.stderr)
            return 1
        with open(PAGE, "w", encoding="utf-8") as f:
            f.write(page[:at + len(MARKER)] + "\n\n" + table)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
