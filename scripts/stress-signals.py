#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""SIGINT or SIGTERM at random moments of each job's start: every run must end, cleanly.

For each job (shoot, batch, stream, camera, verify) this starts camstamp RUNS times and sends
SIGINT or SIGTERM (alternating) at a random moment from 0 to 600 ms after the spawn, then
checks:
  - the process is gone within 5 s of the signal (else: a failure, and it is killed);
  - its status is 128 + the signal as a shell reports it (camstamp's own exit, or, while the
    dynamic loader still maps the libraries, death by the signal), or the job's own result
    when it had already finished (0 or 1);
  - what it wrote is whole: photos decode, a recording is absent or has frames, no temporary
    `.part` file is left.
It prints, per job, the runs, the failures, how many ended by camstamp's exit and how many by
the kernel's default action, and the time from signal to exit (median, p99, max); it exits 1 on
any failure. `make stress` runs it; it is not part of `make test` (minutes, not seconds).

Usage: scripts/stress-signals.py [--runs N] [--jobs NAME,...] [--seed S] CAMSTAMP
"""
import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

GRACE = 5.0


def make_photos(folder, count):
    """Small JPEGs for batch and verify, drawn with ImageMagick, colour type said."""
    os.makedirs(folder, exist_ok=True)
    for index in range(count):
        subprocess.run(["convert", "-seed", str(index + 1), "-size", "320x240", "plasma:fractal",
                        "-type", "TrueColor", "-quality", "90", os.path.join(folder, "p%02d.jpg" % index)],
                       check=True)


def commands(camstamp, work, photos):
    """Each job's command line and where its outputs go."""
    return {
        "shoot": ([camstamp, "shoot", "--source", "test", "--text", "x", "--size", "320x240",
                   "--count", "50", "--interval", "0.1", "-o", work + "/"], work),
        "batch": ([camstamp, "batch", photos, "--text", "x", "--jobs", "2", "-o", work], work),
        "stream": ([camstamp, "stream", "--source", "test", "--text", "x", "--size", "320x240",
                    "--to", os.path.join(work, "rec.mp4")], work),
        "camera": ([camstamp, "camera", "--source", "test", "--size", "320x240",
                    "--web", "127.0.0.1:0", "-o", work], work),
        "verify": ([camstamp, "verify", os.path.join(photos, "p00.jpg")], work),
    }


def frames(path):
    """Video frames ffprobe decodes in `path` (0 when none or unreadable)."""
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path],
        capture_output=True, text=True, timeout=60)
    try:
        return int(probe.stdout.strip() or "0")
    except ValueError:
        return 0


def check_outputs(folder):
    """What is wrong with what a run left in `folder`, or None."""
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".part"):
            return "temporary left: " + name
        if name.endswith(".jpg"):
            decoded = subprocess.run(["djpeg", "-outfile", os.devnull, path], capture_output=True)
            if decoded.returncode != 0:
                return "%s does not decode: %s" % (name, decoded.stderr.decode(errors="replace").strip())
        if name.endswith(".mp4") and frames(path) == 0:
            return "%s has no frame (%d bytes)" % (name, os.path.getsize(path))
    return None


def one_run(argv, work, number, moment):
    """Starts `argv`, signals it `moment` s later; returns (failure or None, how, seconds)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    start = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               restore_signals=True)
    time.sleep(max(0.0, moment - (time.monotonic() - start)))
    sent = time.monotonic()
    if process.poll() is None:
        process.send_signal(number)
    try:
        process.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return ("alive %.0f s after signal %d at %.3f s" % (GRACE, number, moment), "hung", GRACE)
    seconds = time.monotonic() - sent
    stderr = process.stderr.read().decode(errors="replace").strip()
    status = process.returncode
    if status < 0:
        how, shell = "killed", 128 - status
    else:
        how, shell = "exit", status
    if shell != 128 + number and status not in (0, 1):
        return ("status %d (%s) after signal %d at %.3f s: %s" % (shell, how, number, moment, stderr[:200]),
                how, seconds)
    if status in (0, 1):
        how = "finished"
    problem = check_outputs(work)
    if problem:
        return ("%s (signal %d at %.3f s)" % (problem, number, moment), how, seconds)
    return (None, how, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("camstamp")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--jobs", default="shoot,batch,stream,camera,verify")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    random.seed(options.seed)
    root = tempfile.mkdtemp(prefix="camstamp-stress-signals-")
    failed = 0
    try:
        photos = os.path.join(root, "photos")
        make_photos(photos, 12)
        work = os.path.join(root, "work")
        table = commands(os.path.abspath(options.camstamp), work, photos)
        print("%-7s %5s %6s %5s %7s %8s %9s %8s %8s" % (
            "job", "runs", "failed", "exit", "killed", "finished", "median ms", "p99 ms", "max ms"))
        for name in options.jobs.split(","):
            argv, folder = table[name]
            counts = {"exit": 0, "killed": 0, "finished": 0, "hung": 0}
            times, failures = [], []
            for run in range(options.runs):
                number = signal.SIGINT if run % 2 == 0 else signal.SIGTERM
                problem, how, seconds = one_run(argv, folder, number, random.uniform(0, 0.6))
                counts[how] += 1
                times.append(seconds)
                if problem:
                    failures.append(problem)
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print("%-7s %5d %6d %5d %7d %8d %9.0f %8.0f %8.0f" % (
                name, options.runs, len(failures), counts["exit"], counts["killed"], counts["finished"],
                statistics.median(times) * 1000, p99 * 1000, times[-1] * 1000), flush=True)
            for problem in failures[:10]:
                print("  %s: %s" % (name, problem))
            failed += len(failures)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if failed:
        print("stress-signals: %d runs failed" % failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
