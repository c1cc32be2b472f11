#!/usr/bin/env python3
"""The library product's public API, checked from its symbol graphs (`make api-check`).

Every public symbol of every module in the `CamStamp` library product must have a `///` doc
comment, and no public signature may name a C type or a type from a module outside the product
(a client could not import it). Prints one line per problem and exits 1 if there is any.

Usage: scripts/check-library-api.py [--symbol-graphs DIR] [BIN_DIR]
  BIN_DIR: `swift build --show-bin-path` (built); --symbol-graphs keeps the graphs there (for docc).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PRODUCT = "CamStamp"
# Modules every Swift client has: the standard library and Foundation's family.
SYSTEM_MODULES = {"Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization",
                  "Dispatch", "Synchronization", "_Concurrency"}


def run(arguments, **kwargs):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, **kwargs).stdout


def module_of(usr):
    """The module a Swift USR belongs to (`s:5Media10VideoFrameC` → Media); `C` for a C symbol."""
    if usr.startswith("c:"):
        return "C"
    match = re.match(r"s:(\d+)", usr)
    if match:
        length = int(match.group(1))
        start = match.end()
        return usr[start:start + length]
    # `s:S…` and `s:s…` are the standard library's substitutions.
    return "Swift"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    arguments = sys.argv[1:]
    keep = None
    if arguments[:1] == ["--symbol-graphs"]:
        keep = os.path.abspath(arguments[1])
        arguments = arguments[2:]
    bin_dir = arguments[0] if arguments else run(["swift", "build", "--show-bin-path"], cwd=root).strip()
    package = json.loads(run(["swift", "package", "dump-package"], cwd=root))
    product = next(p for p in package["products"] if p["name"] == PRODUCT)
    modules = product["targets"]
    extract = shutil.which("swift-symbolgraph-extract") or os.path.join(
        os.path.dirname(os.path.realpath(shutil.which("swift"))), "swift-symbolgraph-extract")

    flags = ["-I", os.path.join(bin_dir, "Modules")]
    for target in package["targets"]:
        # A C target of our own: SwiftPM writes its module map into the build folder.
        generated = os.path.join(bin_dir, target["name"] + ".build", "module.modulemap")
        if target["type"] == "regular" and os.path.isdir(os.path.join(root, "Sources", target["name"], "include")):
            flags += ["-Xcc", "-fmodule-map-file=" + generated]
            continue
        if target["type"] != "system":
            continue
        modulemap = os.path.join(root, "Sources", target["name"], "module.modulemap")
        flags += ["-Xcc", "-fmodule-map-file=" + modulemap]
        if target.get("pkgConfig"):
            for include in run(["pkg-config", "--cflags-only-I", target["pkgConfig"]]).split():
                flags += ["-Xcc", include]
    triple = run(["swift", "-print-target-info"])
    triple = json.loads(triple)["target"]["triple"]

    problems = []
    count = 0
    with tempfile.TemporaryDirectory() as scratch:
        output = keep or scratch
        os.makedirs(output, exist_ok=True)
        for stale in os.listdir(output):
            if stale.endswith(".symbols.json"):
                os.remove(os.path.join(output, stale))
        for module in modules:
            run([extract, "-module-name", module, "-target", triple, "-minimum-access-level", "public",
                 "-skip-synthesized-members", "-output-dir", output] + flags)
        for name in sorted(n for n in os.listdir(output) if n.endswith(".symbols.json")):
            graph = json.load(open(os.path.join(output, name)))
            for symbol in graph["symbols"]:
                if symbol["accessLevel"] not in ("public", "open"):
                    continue
                count += 1
                where = symbol.get("location", {}).get("uri", "").replace("file://" + root + "/", "")
                line = symbol.get("location", {}).get("position", {}).get("line", -1) + 1
                title = ".".join(symbol["pathComponents"])
                if not symbol.get("docComment"):
                    problems.append(f"{where}:{line}: {title}: public without a /// doc comment")
                for fragment in symbol.get("declarationFragments", []):
                    if fragment["kind"] != "typeIdentifier" or "preciseIdentifier" not in fragment:
                        continue
                    owner = module_of(fragment["preciseIdentifier"])
                    if owner == "C":
                        problems.append(f"{where}:{line}: {title}: C type '{fragment['spelling']}' in a public signature")
                    elif owner not in modules and owner not in SYSTEM_MODULES:
                        problems.append(f"{where}:{line}: {title}: '{fragment['spelling']}' comes from {owner}, "
                                        f"which is not in the {PRODUCT} product ({', '.join(modules)})")
    for problem in sorted(set(problems)):
        print(problem)
    print(f"api-check: {count} public symbols in {', '.join(modules)}; {len(set(problems))} problem(s)",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
