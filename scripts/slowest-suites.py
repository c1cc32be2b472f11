#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""Run a `swift test` command, pass its output through, then print the ten slowest suites.

Swift Testing ends each suite with `Suite NAME passed after N seconds.` (or `failed after`);
this reads those lines as they go by, and when the command ends prints the wall time and the
ten suites that took longest, so a suite that grows slow shows at the end of every `make test`.
It exits with the command's own status.

Usage: scripts/slowest-suites.py [--top N] -- COMMAND...
"""
import argparse
import re
import subprocess
import sys
import time

SUITE = re.compile(r'Suite "?(?P<name>[^"]+?)"? (?P<result>passed|failed) after (?P<seconds>[0-9.]+) seconds')
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command:
        parser.error("give the command to run after --")
    started = time.monotonic()
    suites = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        for raw in process.stdout:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            match = SUITE.search(COLOUR.sub("", raw.decode("utf-8", "replace")))
            if match:
                suites.append((float(match["seconds"]), match["name"], match["result"]))
    status = process.returncode
    elapsed = time.monotonic() - started
    minutes, seconds = divmod(int(round(elapsed)), 60)
    print("\n%d suites in %d min %02d s; the %d slowest:" % (len(suites), minutes, seconds, arguments.top))
    for seconds_taken, name, result in sorted(suites, reverse=True)[: arguments.top]:
        print("  %8.1f s  %s%s" % (seconds_taken, name, "" if result == "passed" else "  (failed)"))
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
