#!/usr/bin/env python3
"""Time whole commands, interleaved, and keep every run for the report.

    measure.py --out FILE.json [--rounds 3] [--warmup 1] [--prep CMD] [--post CMD]
               [--capture] [--settle 0.15] NAME=COMMAND ...

Every COMMAND runs under `bash -c`, wrapped in GNU time (`/usr/bin/time -v`). A round runs each
command once; round k starts with command k (mod n), so a slow patch of a busy machine falls on all
tools alike. Before each run, --prep runs untimed (with $BENCH_NAME set to the command's NAME, e.g. to
empty an output folder); after it, --post runs untimed and its last output line, if it is a number,
is kept as that run's unit count (frames actually written, say). With --capture the command's own
standard output is kept too (its last line), for commands that measure themselves.

Per run the JSON keeps:
  wall     seconds, monotonic clock from spawn to reap
  user/sys CPU seconds of the command and every process it waited for (wait4 on the whole tree)
  max_rss_kib  GNU time's "Maximum resident set size" (KiB): the largest single process of the tree
  busy     share of the machine (all cores) that *other* processes used during the run, from
           /proc/stat: the noise indicator (this is a shared 2-core machine)
Before each run the script waits (at most --settle-wait seconds) until other processes use less
than --settle of the machine, so a neighbour's compile does not land inside a measurement if it
can be avoided; whatever is left shows up in `busy`.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time"
HZ = os.sysconf("SC_CLK_TCK")


def machine_ticks():
    """(busy seconds, all seconds) of the whole machine since boot."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:9]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / HZ, sum(fields) / HZ


def settle(limit, patience):
    """Waits until the machine is mostly idle, or patience runs out; returns the last busy share."""
    deadline = time.monotonic() + patience
    while True:
        b0, t0 = machine_ticks()
        time.sleep(0.5)
        b1, t1 = machine_ticks()
        share = (b1 - b0) / max(t1 - t0, 1e-6)
        if share < limit or time.monotonic() >= deadline:
            return share


def parse_gnu_time(path):
    text = open(path, errors="replace").read()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    status = re.search(r"Exit status: (\d+)", text)
    signal = re.search(r"Command terminated by signal (\d+)", text)
    return {
        "max_rss_kib": int(m.group(1)) if m else None,
        "exit": int(status.group(1)) if status else (128 + int(signal.group(1)) if signal else None),
    }


def last_number(text):
    for line in reversed(text.strip().splitlines()):
        try:
            return float(line.strip())
        except ValueError:
            return None
    return None


def run(name, command, args, log):
    env = dict(os.environ, BENCH_NAME=name)
    if args.prep:
        subprocess.run(["bash", "-c", args.prep], env=env, check=True)
    if args.settle > 0:
        settle(args.settle, args.settle_wait)
    handle, report = tempfile.mkstemp(prefix="bench-time-")
    os.close(handle)
    out = subprocess.PIPE if args.capture else log
    busy0, all0 = machine_ticks()
    started = time.monotonic()
    child = subprocess.Popen([GNU_TIME, "-v", "-o", report, "bash", "-c", command],
                             stdin=subprocess.DEVNULL, stdout=out, stderr=log, env=env)
    captured = child.stdout.read().decode(errors="replace") if args.capture else ""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    busy1, all1 = machine_ticks()
    if args.capture:
        child.stdout.close()
    gnu = parse_gnu_time(report)
    os.unlink(report)
    own = usage.ru_utime + usage.ru_stime
    elapsed = all1 - all0
    busy = max(0.0, (busy1 - busy0) - own) / elapsed if elapsed >= 0.5 else None
    result = {
        "wall": wall, "user": usage.ru_utime, "sys": usage.ru_stime, "cpu": own,
        "max_rss_kib": gnu["max_rss_kib"], "exit": gnu["exit"] if gnu["exit"] is not None else os.waitstatus_to_exitcode(status),
        "busy": busy,
    }
    if args.capture:
        result["stdout"] = captured.strip().splitlines()[-1] if captured.strip() else ""
    if args.post:
        post = subprocess.run(["bash", "-c", args.post], env=env, check=False, capture_output=True, text=True)
        result["units"] = last_number(post.stdout)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--label", default="")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--prep", default="")
    parser.add_argument("--post", default="")
    parser.add_argument("--capture", action="store_true")
    parser.add_argument("--settle", type=float, default=float(os.environ.get("BENCH_SETTLE", "0.15")))
    parser.add_argument("--settle-wait", type=float, default=float(os.environ.get("BENCH_SETTLE_WAIT", "60")))
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()

    order = []
    commands = {}
    for spec in args.commands:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            sys.exit(f"measure.py: expected NAME=COMMAND, got {spec!r}")
        order.append(name)
        commands[name] = command

    log_path = os.environ.get("BENCH_LOG")
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL
    runs = {name: [] for name in order}
    total = args.warmup + args.rounds
    for index in range(total):
        timed = index >= args.warmup
        shift = (index - args.warmup) % len(order) if timed else 0
        for name in order[shift:] + order[:shift]:
            r = run(name, commands[name], args, log)
            tag = f"round {index - args.warmup + 1}/{args.rounds}" if timed else "warm-up"
            noise = f"{r['busy']:.0%}" if r["busy"] is not None else "-"
            units = f" units {r['units']:g}" if r.get("units") is not None else ""
            print(f"  {args.label} {tag:<11} {name:<18} wall {r['wall']:7.2f}s cpu {r['cpu']:7.2f}s "
                  f"rss {(r['max_rss_kib'] or 0) / 1024:6.0f}MiB exit {r['exit']} others {noise}{units}",
                  file=sys.stderr, flush=True)
            if r["exit"] != 0:
                print(f"  !! {name} exited with {r['exit']}: {commands[name]}", file=sys.stderr)
            if timed:
                runs[name].append(r)

    with open(args.out, "w") as f:
        json.dump({"label": args.label, "rounds": args.rounds, "order": order,
                   "commands": commands, "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()
