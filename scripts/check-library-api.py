#!/usr/bin/env python3
"""The library product's public API, checked from its symbol graphs (`make api-check`).

Every public symbol of every module in the `CamStamp` library product must have a `///` doc
comment, and no public signature may name a C type, a type from a module outside the product (a
client could not import it), or a type that `import CamStamp` alone does not bring into scope (a
client would need a second import: the module must be re-exported with `@_exported import`). That
last check type-checks a probe file, `import CamStamp` and one typealias per type the signatures
name, against the built modules, as a client's compiler would. Prints one line per problem and
exits 1 if there is any.

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


def exported_modules(root, module):
    """The modules `module`'s sources re-export (`@_exported import X`)."""
    found = set()
    for folder, _, names in os.walk(os.path.join(root, "Sources", module)):
        for name in names:
            if name.endswith(".swift"):
                text = open(os.path.join(folder, name), encoding="utf-8").read()
                found.update(re.findall(r"^@_exported\s+(?:public\s+)?import\s+(\w+)", text, re.M))
    return found


def unreachable_types(names, flags, triple, scratch):
    """Of `names` (qualified type names), those a file with only `import CamStamp` cannot name,
    with the compiler's message: one typealias per name, type-checked against the built modules."""
    probe = os.path.join(scratch, "client-probe.swift")
    ordered = sorted(names)
    with open(probe, "w", encoding="utf-8") as out:
        out.write(f"import {PRODUCT}\n")
        for index, name in enumerate(ordered):
            out.write(f"typealias _Probe{index} = {name}\n")
    swiftc = shutil.which("swiftc") or os.path.join(os.path.dirname(os.path.realpath(shutil.which("swift"))), "swiftc")
    result = subprocess.run([swiftc, "-typecheck", "-target", triple, probe] + flags, capture_output=True, text=True)
    missing = {}
    for line in result.stderr.splitlines():
        match = re.match(re.escape(probe) + r":(\d+):\d+: error: (.*)", line)
        if match and 2 <= int(match.group(1)) <= len(ordered) + 1:
            missing.setdefault(ordered[int(match.group(1)) - 2], match.group(2))
    if result.returncode != 0 and not missing:
        raise RuntimeError("the client probe did not type-check:\n" + result.stderr)
    return missing


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
    counted = set()
    with tempfile.TemporaryDirectory() as scratch:
        output = keep or scratch
        os.makedirs(output, exist_ok=True)
        for stale in os.listdir(output):
            if stale.endswith(".symbols.json"):
                os.remove(os.path.join(output, stale))
        for module in modules:
            # What a module re-exports is in its own graph (and so in its DocC pages).
            reexported = sorted(exported_modules(root, module) & set(modules))
            allowed = ["-experimental-allowed-reexported-modules=" + ",".join(reexported)] if reexported else []
            run([extract, "-module-name", module, "-target", triple, "-minimum-access-level", "public",
                 "-skip-synthesized-members", "-output-dir", output] + allowed + flags)
        graphs = [json.load(open(os.path.join(output, name)))
                  for name in sorted(n for n in os.listdir(output) if n.endswith(".symbols.json"))]
        # Each type's name as a client writes it (`Stamper.Settings`), by USR.
        names = {symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"])
                 for graph in graphs for symbol in graph["symbols"]}
        named = {}
        for graph in graphs:
            for symbol in graph["symbols"]:
                if symbol["accessLevel"] not in ("public", "open"):
                    continue
                counted.add(symbol["identifier"]["precise"])
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
                    elif owner in modules and fragment["preciseIdentifier"] in names:
                        type_name = names[fragment["preciseIdentifier"]]
                        named.setdefault(type_name, (owner, f"{where}:{line}: {title}"))
        for type_name, why in unreachable_types(named, flags, triple, scratch).items():
            owner, place = named[type_name]
            problems.append(f"{place}: '{type_name}' (from {owner}) is not reachable through `import {PRODUCT}` "
                            f"alone ({why}); re-export {owner} (`@_exported public import {owner}`)")
    for problem in sorted(set(problems)):
        print(problem)
    print(f"api-check: {len(counted)} public symbols in {', '.join(modules)}; {len(set(problems))} problem(s)",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
