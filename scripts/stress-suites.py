#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""Run the timing-sensitive suites again and again on a loaded machine: none may fail.

A test that waits on time instead of on a state passes on an idle machine and fails on a
busy one (CI's, or a user's laptop compiling something). This starts `stress-ng --cpu N`
(Debian `stress-ng`) to keep every core busy, then runs each suite below RUNS times with
`swift test --skip-build`, keeps the log of every failing run under --logs, prints a table of
runs, failures and the slowest run per suite, stops stress-ng and exits 1 on any failure.
`make stress` runs it after scripts/stress-signals.py; it is not part of `make test`.

Usage: scripts/stress-suites.py [--runs N] [--cpu N] [--suites REGEX,...] [--logs DIR] CONFIG
(CAMSTAMP_BIN in the environment names the binary the end-to-end suites drive.)
"""
import argparse
import os
import signal
import subprocess
import sys
import time

# The suites whose tests race a clock, a server, a decoder or a signal: live targets, RTSP
# viewers, the sample taps' muxers, the audio devices, and the signal handling of every job.
SUITES = [
    "EndToEndTests.RTSPJoinTests",
    "EndToEndTests.LiveTargetTests",
    "EndToEndTests.AudioDeviceTests",
    "EndToEndTests.StreamSignalTests",
    "EndToEndTests.StartSignalTests",
    "MediaTests.SampleTapTests",
]


def run_suite(config, suite, logs, index):
    """One `swift test` run of `suite`: (passed, seconds)."""
    started = time.monotonic()
    log_path = os.path.join(logs, "%s-%02d.log" % (suite.replace(".", "-"), index))
    with open(log_path, "wb") as log:
        status = subprocess.run(["swift", "test", "--skip-build", "-c", config, "--filter", suite + "[./]"],
                                stdout=log, stderr=subprocess.STDOUT,
                                env=dict(os.environ, G_DEBUG="fatal-criticals")).returncode
    seconds = time.monotonic() - started
    if status == 0:
        os.remove(log_path)
    return status == 0, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--cpu", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--suites", default=",".join(SUITES))
    parser.add_argument("--logs", default=".build/stress-logs")
    parser.add_argument("config")
    arguments = parser.parse_args()
    if "CAMSTAMP_BIN" not in os.environ:
        parser.error("set CAMSTAMP_BIN to the camstamp binary the suites drive")
    os.makedirs(arguments.logs, exist_ok=True)
    load = subprocess.Popen(["stress-ng", "--cpu", str(arguments.cpu), "--quiet"], start_new_session=True)
    rows = []
    try:
        for suite in arguments.suites.split(","):
            results = [run_suite(arguments.config, suite, arguments.logs, index + 1)
                       for index in range(arguments.runs)]
            failed = sum(1 for passed, _ in results if not passed)
            slowest = max(seconds for _, seconds in results)
            rows.append((suite, len(results), failed, slowest))
            print("%-40s %3d runs  %2d failed  slowest %6.1f s" % (suite, len(results), failed, slowest),
                  flush=True)
    finally:
        os.killpg(load.pid, signal.SIGTERM)
        load.wait()
    failures = sum(row[2] for row in rows)
    print("\nunder stress-ng --cpu %d: %d suites x %d runs, %d failed%s" % (
        arguments.cpu, len(rows), arguments.runs, failures,
        "; logs in " + arguments.logs if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
