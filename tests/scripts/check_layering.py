#!/usr/bin/env python3
"""The layering of docs/design.md ("Layers and their rules"), checked on the include graph.

Walks base/, kernels/, tiling/, src/ and include/, resolves every #include as the compiler
does (a quoted name first beside the including file, then from the project root, include/
and the generated headers) and fails, naming file, line and the rule, on any include that
the table below does not allow. An include that names no file of the tree is a system or
third-party header: checked only for the libraries that belong to one layer (Highway,
OpenMP, nlohmann's JSON), and an error when quoted (a misspelt or missing header).

  check_layering.py [--root DIR]           exit 0, or 1 with one line per broken rule
  check_layering.py [--root DIR] --edges   also prints the include edges between layers

ctest runs it on the tree (`layering`) and on a small tree that breaks the rules
(`layering_check_fails`, check_layering_test.py)."""

import argparse
import collections
import os
import re
import sys

# ---- the rules --------------------------------------------------------------------------
# Where each layer lives: path prefixes, relative to the root (the longest prefix wins).
LAYERS = {
    "include/hostnn/": "hostnn",
    "include/acl/": "cann-api",
    "include/aclnn/": "cann-api",
    "include/aclnnop/": "cann-api",
    "base/": "base",
    "kernels/": "kernels",
    "tiling/": "tiling",
    "src/core/": "src/core",
    "src/exec/": "src/exec",
    "src/aclnn/": "src/aclnn",
    "src/runtime/": "src/runtime",
    "src/cann/": "src/cann",
}

# Headers made at configure time, which are in no source folder, and the layer they are of.
GENERATED = {
    # cmake/op_list.cmake: one include of every include/aclnnop header.
    "hostnn/aclnnop_all.h": "cann-api",
}

# What each layer may include besides itself, and why (docs/design.md's layer diagram, top
# to bottom: the APIs and front end, the middle end, the planner and back end; base/ and the
# public headers beneath them all).
RULES = {
    "hostnn": ((), "installed: public headers include only public headers"),
    "cann-api": ((), "installed: public headers include only public headers"),
    "base": (("hostnn",), "base/ is beneath every layer"),
    "kernels": (("base", "hostnn"),
                "the back end computes contiguous elements and sees no front end, plan or "
                "executor"),
    "tiling": (("base", "hostnn"),
               "the planner is plain data in, plain data out and sees no front end, executor "
               "or kernel"),
    "src/core": (("base", "hostnn", "src/runtime"),
                 "the check and layout helpers sit below the front and middle ends; check.cc "
                 "asks the runtime about aclrtMalloc blocks"),
    "src/exec": (("src/core", "tiling", "kernels", "base", "hostnn"),
                 "the middle end is the one layer that reaches planner internals and kernels"),
    "src/aclnn": (("src/exec", "src/core", "src/runtime", "base", "hostnn", "cann-api"),
                  "the front end and the C API reach tiling/ and kernels/ only through "
                  "src/exec; the public hostnn/tiling.h is fine"),
    "src/runtime": (("base", "hostnn", "cann-api"),
                    "the runtime (devices, streams, allocations, messages) is below src/core, "
                    "which asks it about allocations, and reaches no operator code"),
    "src/cann": (("src/aclnn", "base", "hostnn", "cann-api"),
                 "CANN's library names only forward to libhostnn's entry points, with "
                 "src/aclnn's signatures"),
}

# Third-party headers that belong to one layer: name prefix -> the path prefixes (layers or
# single files) that may include them.
THIRD_PARTY = {
    "hwy/": ("kernels/",),                   # Highway: the back end's alone
    "omp.h": ("src/exec/launcher.cc",),      # the launcher is the only OpenMP code
    "nlohmann/": ("tiling/",),               # the JSON files are the planner's
}

# ---- the walk ---------------------------------------------------------------------------
TOPS = ("base", "kernels", "tiling", "src", "include")
SOURCE = re.compile(r"\.(h|hh|hpp|c|cc|cpp|def|inc)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer_of(path):
    best = None
    for prefix in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return LAYERS[best] if best else None


def resolve(root, including, name, quoted):
    """The root-relative path `name` names, a GENERATED name, or None (not in the tree)."""
    dirs = ["include", ""]
    if quoted:
        dirs.insert(0, os.path.dirname(including))
    for d in dirs:
        candidate = os.path.normpath(os.path.join(d, name))
        if not candidate.startswith("..") and os.path.isfile(os.path.join(root, candidate)):
            return candidate.replace(os.sep, "/")
    if name in GENERATED:
        return name
    return None


def sources(root):
    for top in TOPS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if SOURCE.search(f):
                    yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def rule_cycle():
    """A cycle of layers that RULES lets include each other in a ring ([] if none): layers
    must stack, or "below" means nothing."""
    state = {}

    def visit(layer, path):
        state[layer] = "open"
        for to in RULES[layer][0]:
            if state.get(to) == "open":
                return path[path.index(to):] + [to] if to in path else [layer, to]
            if to not in state:
                found = visit(to, path + [to])
                if found:
                    return found
        state[layer] = "done"
        return []

    for layer in RULES:
        if layer not in state:
            found = visit(layer, [layer])
            if found:
                return found
    return []


def check(root):
    """(violations as text lines, cross-layer edges {(from, to): [count, broken]}, files)."""
    violations = []
    cycle = rule_cycle()
    if cycle:
        violations.append("the rule table lets layers include each other in a ring: "
                          + " -> ".join(cycle))
    edges = collections.defaultdict(lambda: [0, False])
    files = list(sources(root))
    for path in files:
        layer = layer_of(path)
        if layer is None:
            violations.append(f"{path}: in no layer of the rule table (LAYERS in "
                              f"tests/scripts/check_layering.py): add its folder")
            continue
        allowed, why = RULES[layer]
        with open(os.path.join(root, path), errors="replace") as f:
            lines = f.readlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quoted, name = m.group(1) == '"', m.group(2)
            close = '"' if quoted else ">"
            where = f"{path}:{number}: #include {m.group(1)}{name}{close}"
            target = resolve(root, path, name, quoted)
            if target is None:
                owners = [v for k, v in THIRD_PARTY.items() if name.startswith(k)]
                if owners and not any(path.startswith(p) for p in owners[0]):
                    violations.append(f"{where}: only {', '.join(owners[0])} may include it")
                elif quoted and not owners:
                    violations.append(f"{where}: names no file of the tree (a generated "
                                      f"header goes in GENERATED)")
                continue
            to = GENERATED.get(target) or layer_of(target)
            if to is None:
                violations.append(f"{where}: {target} is in no layer of the library")
                continue
            if to == layer:
                continue
            broken = to not in allowed
            edge = edges[(layer, to)]
            edge[0] += 1
            edge[1] = edge[1] or broken
            if broken:
                may = ", ".join((layer,) + allowed)
                violations.append(f"{where}: {layer} may not include {to}: {why} ({layer} "
                                  f"may include {may})")
    return violations, edges, files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")),
                        help="the source tree (default: this script's)")
    parser.add_argument("--edges", action="store_true",
                        help="print the include edges between layers (layer -> layer: count)")
    args = parser.parse_args()

    violations, edges, files = check(args.root)
    if args.edges:
        width = max((len(a) for a, _ in edges), default=0)
        for (a, b), (count, broken) in sorted(edges.items()):
            print(f"{a:<{width}} -> {b}: {count}{'  (breaks the rules)' if broken else ''}")
    if violations:
        for v in violations:
            print(v, file=sys.stderr)
        print(f"layering: {len(violations)} violation(s) of the rules of docs/design.md "
              f"(\"Layers and their rules\"; the table is in tests/scripts/check_layering.py)",
              file=sys.stderr)
        return 1
    print(f"layering: {len(files)} files, no include breaks the rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
