#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""docs/scale.md's recipes, run as written under the engines they name: none may differ.

GNU parallel (Debian `parallel`) runs the docs' command on 4 shards, and a one-node Slurm
cluster (Debian `slurm-wlm`, `munge`) started here on 127.0.0.1 (slurmctld and slurmd with a
generated slurm.conf, munged with a key made here; all stopped at the end) runs the docs' sbatch
script as `--array=1-4`. Each set of outputs must equal one plain `camstamp batch` of the same
photos with the same marks, file for file and byte for byte, and the docs' jq merge of the shards'
reports must count every photo. Then one array task is cancelled mid-run (scancel: SIGTERM, as a
time limit or a preemption sends) and requeued (`scontrol requeue`): `--skip-existing` finishes
the set, and no file under a final name is partial. The paths of the recipes (/shared/…) are
replaced by this run's folders; nothing else in them is changed. Kubernetes is not run (no
cluster here): its manifest is checked by `kubectl apply --dry-run=client` when kubectl exists.

Usage: scripts/scale-test.py [--photos N] [--keep] CAMSTAMP
`make scale-test` runs it; `make test` runs that.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "docs", "scale.md")


class Failure(Exception):
    pass


def run(command, **options):
    """`command` run to its end (bounded); its output, or a Failure naming what it said."""
    options.setdefault("timeout", 300)
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode != 0:
        raise Failure("%s: exit %d\n%s%s" % (command if isinstance(command, str) else " ".join(command),
                                             result.returncode, result.stdout[-2000:], result.stderr[-2000:]))
    return result.stdout


def recipe(heading, language):
    """The first ```LANGUAGE block under `## HEADING` of docs/scale.md."""
    text = open(DOCS, encoding="utf-8").read()
    section = text.split("\n## " + heading, 1)
    if len(section) < 2:
        raise Failure("docs/scale.md has no section '%s'" % heading)
    block = re.search(r"```" + language + r"\n(.*?)```", section[1].split("\n## ", 1)[0], re.S)
    if not block:
        raise Failure("docs/scale.md, '%s': no ```%s block" % (heading, language))
    return block.group(1)


def make_photos(folder, count, size):
    """COUNT photos, all different, in two subfolders (the recipes use --recursive): baseline
    JPEGs, which the splice stamps in milliseconds, and PNGs, which take long enough to encode
    that a task can be cancelled in the middle of its share."""
    pngs = count // 5
    for part, first, frames, name, size in (("a", 0, count - pngs, "photo-%04d.jpg", size),
                                            ("b", count - pngs, pngs, "photo-%04d.png", "4000x3000")):
        os.makedirs(os.path.join(folder, part), exist_ok=True)
        run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=%s:rate=25" % size,
             "-frames:v", str(frames), "-start_number", str(first), "-q:v", "3", "-compression_level", "1",
             os.path.join(folder, part, name)])


def tree(folder):
    """Relative path to SHA-256 of every file under FOLDER (temporaries included)."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, folder)] = hashlib.sha256(handle.read()).hexdigest()
    return found


def same_tree(label, got, reference):
    expected, actual = tree(reference), tree(got)
    if not expected:
        raise Failure("%s: the plain batch wrote nothing" % label)
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    differ = sorted(name for name in expected if name in actual and actual[name] != expected[name])
    if missing or extra or differ:
        raise Failure("%s: %d missing %s, %d extra %s, %d differ %s" % (
            label, len(missing), missing[:3], len(extra), extra[:3], len(differ), differ[:3]))
    print("%s: %d files, each the same bytes as the plain batch's" % (label, len(expected)), flush=True)


def merged(reports, count, shards):
    """The docs' jq merge of the shards' reports: every photo marked or skipped, none failed."""
    lines = recipe("Merging the reports", "sh").strip().splitlines()
    command = "\n".join(line for line in lines if "what to look at" not in line)
    summary = json.loads(run(["bash", "-c", command.replace("reports/", reports + "/")]))
    done = summary["marked"] + summary["skipped"]
    if summary["shards"] != shards or done != count or summary["failed"] or summary["not_started"]:
        raise Failure("the jq merge says %s, not %d shards and %d photos done" % (summary, shards, count))
    failures = run(["bash", "-c", lines[-1].split("#")[0].replace("reports/", reports + "/")]).strip()
    if failures:
        raise Failure("the jq failure list is not empty: %s" % failures)
    print("jq merge: %s" % json.dumps(summary, sort_keys=True), flush=True)


def paths(text, work):
    return (text.replace("/shared/archive", work + "/archive").replace("/shared/stamped", work + "/stamped")
            .replace("/shared/reports", work + "/reports"))


def gnu_parallel(work, camstamp, count):
    command = paths(recipe("GNU parallel, or one machine with many disks", "sh"), work)
    reference = os.path.join(work, "plain-parallel")
    run([camstamp, "batch", work + "/archive", "-o", reference, "--recursive", "--preset", "credit"])
    run(["bash", "-c", command], cwd=work, timeout=600)
    same_tree("GNU parallel, 4 shards", work + "/stamped", reference)
    merged(work + "/reports", count, 4)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """munged, slurmctld and slurmd for one node named localhost, in WORK/slurm."""

    def __init__(self, work):
        self.folder = os.path.join(work, "slurm")
        os.makedirs(os.path.join(self.folder, "state"))
        os.makedirs(os.path.join(self.folder, "spool"))
        os.chmod(self.folder, 0o700)
        self.processes = []
        key = os.path.join(self.folder, "munge.key")
        with open(key, "wb") as handle:
            handle.write(os.urandom(1024))
        os.chmod(key, 0o400)
        self.socket = os.path.join(self.folder, "munge.socket")
        self.start(["munged", "--foreground", "--force", "--key-file", key, "--socket", self.socket,
                    "--pid-file", self.path("munged.pid"), "--log-file", self.path("munged.log"),
                    "--seed-file", self.path("munged.seed")])
        self.wait(lambda: os.path.exists(self.socket), "munged's socket")
        self.conf = self.path("slurm.conf")
        with open(self.conf, "w") as handle:
            handle.write(self.configuration())
        self.environment = dict(os.environ, SLURM_CONF=self.conf)
        self.start(["slurmctld", "-D", "-i", "-f", self.conf], log="slurmctld.out")
        self.start(["slurmd", "-D", "-N", "localhost", "-f", self.conf], log="slurmd.out")
        self.wait(lambda: self.node_state() in ("idle", "mixed", "allocated"), "the node to be idle", 60)

    def path(self, name):
        return os.path.join(self.folder, name)

    def configuration(self):
        # config_overrides: the node offers the CPUs and memory the docs' script asks for
        # (--cpus-per-task=8, --mem=4G), whatever this machine has; two tasks run at once.
        return "\n".join([
            "ClusterName=camstamp-test", "SlurmctldHost=localhost(127.0.0.1)",
            "SlurmctldPort=%d" % free_port(), "SlurmdPort=%d" % free_port(),
            "AuthType=auth/munge", "CredType=cred/munge", "AuthInfo=socket=%s" % self.socket,
            "SlurmUser=root", "SlurmdUser=root",
            "StateSaveLocation=%s" % self.path("state"), "SlurmdSpoolDir=%s" % self.path("spool"),
            "SlurmctldPidFile=%s" % self.path("slurmctld.pid"), "SlurmdPidFile=%s" % self.path("slurmd.pid"),
            "SlurmctldLogFile=%s" % self.path("slurmctld.log"), "SlurmdLogFile=%s" % self.path("slurmd.log"),
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "MpiDefault=none",
            "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
            "SchedulerType=sched/builtin", "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU_Memory",
            "ReturnToService=2", "SlurmdParameters=config_overrides", "KillWait=10",
            "NodeName=localhost NodeAddr=127.0.0.1 CPUs=16 RealMemory=16384 State=UNKNOWN",
            "PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP", "",
        ])

    def start(self, command, log=None):
        output = open(self.path(log), "w") if log else subprocess.DEVNULL
        self.processes.append(subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                               start_new_session=True))

    def wait(self, ready, what, seconds=20, poll=0.2):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            if any(process.poll() is not None for process in self.processes):
                break
            time.sleep(poll)
        raise Failure("Slurm: no %s after %d s\n%s" % (what, seconds, self.logs()))

    def logs(self):
        text = ""
        for name in ("munged.log", "slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"):
            if os.path.exists(self.path(name)):
                text += "--- %s\n%s\n" % (name, open(self.path(name), errors="replace").read()[-1500:])
        return text

    def node_state(self):
        result = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], capture_output=True, text=True,
                                env=self.environment, timeout=30)
        return result.stdout.strip().rstrip("*~#")

    def slurm(self, command, **options):
        return run(command, env=self.environment, **options)

    def tasks(self, job):
        """Task id to state, for the tasks of array JOB still known to slurmctld."""
        out = self.slurm(["squeue", "-h", "-r", "-j", job, "-o", "%K %T"])
        return dict(line.split() for line in out.splitlines() if line.strip())

    def finish(self, job, seconds=600):
        self.wait(lambda: not self.tasks(job), "end of job %s" % job, seconds)

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def slurm(work, camstamp, count):
    script = paths(recipe("Slurm job array", "sh"), work)
    batch = os.path.join(work, "stamp.sbatch")
    with open(batch, "w") as handle:
        handle.write(script)
    reference = os.path.join(work, "plain-slurm")
    run([camstamp, "batch", work + "/archive", "-o", reference, "--recursive", "--preset", "credit",
         "--var", "author=Studio North", "--strip-gps"])
    cluster = Cluster(work)
    try:
        for run_name in ("whole", "cancelled"):
            for folder in ("stamped", "reports"):
                shutil.rmtree(os.path.join(work, folder), ignore_errors=True)
                os.makedirs(os.path.join(work, folder))
            job = cluster.slurm(["sbatch", "--parsable", "--array=1-4", batch], cwd=work).strip().split(";")[0]
            if run_name == "cancelled":
                cancel_mid_run(cluster, job, work)
            cluster.finish(job)
            same_tree("Slurm --array=1-4 (%s)" % run_name, work + "/stamped", reference)
            merged(work + "/reports", count, 4)
    except Failure as failure:
        raise Failure("%s\n%s" % (failure, cluster.logs()))
    finally:
        cluster.stop()


def cancel_mid_run(cluster, job, work):
    """Task 2 cancelled once it has stamped a few photos, then requeued."""
    report = os.path.join(work, "reports", "shard-2.jsonl")

    def started():
        return os.path.exists(report) and sum(1 for _ in open(report)) >= 1

    cluster.wait(started, "photo stamped by task 2", 300, poll=0.02)
    cluster.slurm(["scancel", "%s_2" % job])
    cluster.wait(lambda: cluster.tasks(job).get("2") not in ("RUNNING", "COMPLETING"), "end of the cancelled task", 60)
    lines = [json.loads(line) for line in open(report) if line.strip()]
    # SIGTERM: the photos being stamped are finished, the rest left, and the summary says so.
    summaries = [line["summary"] for line in lines if "summary" in line]
    if not summaries or not summaries[-1].get("interrupted"):
        raise Failure("task 2 was not interrupted (%s): stamp more photos (--photos)" % summaries)
    print("Slurm: task 2 cancelled: %d marked, %d not started" % (
        summaries[-1]["marked"], summaries[-1]["not_started"]), flush=True)
    # Whatever is under a final name is whole: each output a JPEG from its SOI to its EOI.
    for root, _, files in os.walk(os.path.join(work, "stamped")):
        for name in files:
            if name.startswith(".camstamp-"):
                continue
            data = open(os.path.join(root, name), "rb").read()
            whole = (data.startswith(b"\xff\xd8") and data.endswith(b"\xff\xd9")) or (
                data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82"))
            if not whole:
                raise Failure("%s: partial under its final name" % name)
    cluster.slurm(["scontrol", "requeue", "%s_2" % job])


def kubernetes():
    """No cluster here: the manifest is read as YAML and its shard count checked against
    `completions`; kubectl's client-side dry run needs an API server to map the kind, so it is
    tried only when one answers."""
    import yaml
    manifest = recipe("Kubernetes Indexed Job", "yaml")
    job = yaml.safe_load(manifest)
    spec = job["spec"]
    command = " ".join(spec["template"]["spec"]["containers"][0]["args"])
    shards = re.search(r'--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/(\d+)"', command)
    if (job.get("apiVersion"), job.get("kind"), spec.get("completionMode")) != ("batch/v1", "Job", "Indexed"):
        raise Failure("Kubernetes: the manifest is not an Indexed batch/v1 Job")
    if not shards or int(shards.group(1)) != spec["completions"]:
        raise Failure("Kubernetes: --shard's N is not completions (%s)" % spec["completions"])
    checked = subprocess.run(["kubectl", "apply", "--dry-run=client", "-f", "-"], input=manifest, text=True,
                             capture_output=True, timeout=60) if shutil.which("kubectl") else None
    if checked is not None and checked.returncode == 0:
        print("Kubernetes: kubectl apply --dry-run=client takes the manifest")
    else:
        print("Kubernetes: not run (no cluster or API server here); the manifest reads as an Indexed Job "
              "of %d completions, as many as --shard's N" % spec["completions"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--size", default="1600x1200")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("camstamp")
    arguments = parser.parse_args()
    camstamp = os.path.abspath(arguments.camstamp)
    work = tempfile.mkdtemp(prefix="camstamp-scale-")
    # The recipes call `camstamp`: this build's, first on PATH.
    os.makedirs(os.path.join(work, "bin"))
    os.symlink(camstamp, os.path.join(work, "bin", "camstamp"))
    os.environ["PATH"] = os.path.join(work, "bin") + os.pathsep + os.environ["PATH"]
    started = time.monotonic()
    try:
        make_photos(os.path.join(work, "archive"), arguments.photos, arguments.size)
        for folder in ("stamped", "reports"):
            os.makedirs(os.path.join(work, folder))
        gnu_parallel(work, camstamp, arguments.photos)
        slurm(work, camstamp, arguments.photos)
        kubernetes()
    except Failure as failure:
        print("scale-test: FAILED: %s" % failure, file=sys.stderr)
        return 1
    finally:
        if arguments.keep:
            print("kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("scale-test: passed in %.0f s" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
