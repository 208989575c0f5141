#!/usr/bin/env python3
"""ctest layering_check_fails: check_layering.py can fail. A small tree in a temporary
folder includes across layers as the rules forbid (a kernel including the front end, the
planner including src/core, OpenMP outside the launcher, a header in no file); the check
must exit 1 naming each file, line and rule, and must pass the same tree once those
includes are gone. A rule table whose layers include each other in a ring is refused."""

import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layering.py")

# Every file of the tree that obeys the rules: path -> its text.
CLEAN = {
    "include/hostnn/status.h": "",
    "include/acl/acl.h": "",
    "base/boundary.h": '#include "hostnn/status.h"\n',
    "kernels/kernels.h": '#include "base/boundary.h"\n#include <hwy/highway.h>\n',
    "tiling/internal.h": '#include "hostnn/status.h"\n#include <nlohmann/json.hpp>\n',
    "src/core/y.h": '#include "hostnn/status.h"\n',
    "src/exec/launcher.cc": '#include <omp.h>\n#include "kernels/kernels.h"\n',
    "src/exec/x.h": '#include "tiling/internal.h"\n#include "src/core/y.h"\n',
    "src/aclnn/signatures.h": "",
    "src/aclnn/x.h": '#include "src/exec/x.h"\n#include "hostnn/status.h"\n',
    "src/runtime/r.cc": '#include "base/boundary.h"\n#include "acl/acl.h"\n',
}

# The includes that break the rules: path -> (its text, what the report must name).
BROKEN = {
    "kernels/bad.h": ('#include "kernels/kernels.h"\n#include "src/aclnn/x.h"\n',
                      'kernels/bad.h:2: #include "src/aclnn/x.h": kernels may not include '
                      "src/aclnn"),
    "tiling/bad.cc": ('// a comment\n#include "src/core/y.h"\n',
                      'tiling/bad.cc:2: #include "src/core/y.h": tiling may not include '
                      "src/core"),
    "src/aclnn/bad.cc": ('#include "tiling/internal.h"\n',
                         'src/aclnn/bad.cc:1: #include "tiling/internal.h": src/aclnn may not '
                         "include tiling"),
    "base/bad.h": ('#include "src/core/y.h"\n',
                   'base/bad.h:1: #include "src/core/y.h": base may not include src/core'),
    "src/exec/omp_elsewhere.cc": ("#include <omp.h>\n",
                                  "src/exec/omp_elsewhere.cc:1: #include <omp.h>: only "
                                  "src/exec/launcher.cc may include it"),
    "src/exec/missing.cc": ('#include "src/exec/nowhere.h"\n',
                            'src/exec/missing.cc:1: #include "src/exec/nowhere.h": names no '
                            "file of the tree"),
    "src/newlayer/z.cc": ("", "src/newlayer/z.cc: in no layer of the rule table"),
    "src/runtime/bad.cc": ('#include "src/exec/x.h"\n',
                           'src/runtime/bad.cc:1: #include "src/exec/x.h": src/runtime may not '
                           "include src/exec"),
}


def write(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(root, *args):
    """The check's exit status and output, each run of spaces made one (--edges pads)."""
    p = subprocess.run([sys.executable, CHECK, "--root", root, *args],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, "\n".join(" ".join(line.split()) for line in p.stdout.splitlines())


def main():
    failures = []

    def expect(ok, what, output):
        if not ok:
            failures.append(f"{what}; the check printed:\n{output}")

    with tempfile.TemporaryDirectory(prefix="hostnn_layering_") as root:
        write(root, CLEAN)
        write(root, {path: text for path, (text, _) in BROKEN.items()})
        rc, out = run(root, "--edges")
        expect(rc == 1, f"exit status {rc} on a tree that breaks the rules, not 1", out)
        for path, (_, report) in BROKEN.items():
            expect(report in out, f"no line naming {report!r}", out)
        expect("kernels -> src/aclnn: 1 (breaks the rules)" in out,
               "--edges does not mark kernels -> src/aclnn as breaking the rules", out)
        expect(f"{len(BROKEN)} violation(s) of the rules" in out,
               f"the count of broken rules is not {len(BROKEN)}", out)

        for path in BROKEN:
            os.remove(os.path.join(root, path))
        rc, out = run(root, "--edges")
        expect(rc == 0, f"exit status {rc} once the tree obeys the rules, not 0", out)
        expect("src/exec -> tiling: 1\n" in out, "--edges misses src/exec -> tiling", out)

    # The table itself: layers that include each other in a ring are refused.
    sys.path.insert(0, os.path.dirname(CHECK))
    import check_layering  # noqa: E402
    rules = dict(check_layering.RULES)
    expect(check_layering.rule_cycle() == [], "the project's own rule table has a ring",
           str(check_layering.rule_cycle()))
    check_layering.RULES = dict(rules, **{"src/core": (("src/exec",), "a ring")})
    ring = check_layering.rule_cycle()
    expect("src/core" in ring and "src/exec" in ring,
           "a table where src/exec and src/core include each other is not refused", str(ring))
    check_layering.RULES = rules

    if failures:
        for f in failures:
            print("FAIL:", f)
        return 1
    print(f"check_layering.py failed on each of {len(BROKEN)} broken rules and passed the "
          "tree without them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
