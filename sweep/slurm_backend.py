"""The slurm backend: the points as one Slurm job array (sbatch), each task
running one point into its own database in the sweep's work folder (which
must be on a folder the cluster's nodes share), writing its exit status
next to it. The runner waits and merges the points as they finish; with
--no-wait it submits, beside the array, a job that merges it once it ends
(`fabricsim-sweep ... --merge-attempt ID`) and returns."""
import os
import shlex
import subprocess
import time

_TASK = """#!/bin/bash
# A task of a fabricsim-sweep job array: line SLURM_ARRAY_TASK_ID + 1 of the
# array's list is its point's number; the point's command is in point-N-ATTEMPT.args
# (its arguments, each ended by a NUL byte: run as they are, never read by the shell);
# the point's output and exit status go next to its database.
point=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {folder}/array-{attempt}.txt)
case "$point" in ''|*[!0-9]*) echo "no point for task $SLURM_ARRAY_TASK_ID" >&2; exit 2;; esac
mapfile -d '' -t command < {folder}/point-"$point"-{attempt}.args
"${{command[@]}}" > {folder}/point-"$point"-{attempt}.log 2>&1
echo $? > {folder}/point-"$point"-{attempt}.status
"""


def slurm_file_name(path):
    """A path as sbatch's --output takes it: its own '%' and '\\' escaped (sbatch reads %j, %A... as patterns)."""
    return path.replace("\\", "\\\\").replace("%", "%%")


class SlurmError(OSError):
    pass


def _run(command):
    try:
        r = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise SlurmError(f"{command[0]}: {e} (the slurm backend needs Slurm's commands: slurm-wlm)") from e
    if r.returncode != 0:
        raise SlurmError(f"{shlex.join(command)}: {r.stderr.strip() or 'exit status ' + str(r.returncode)}")
    return r.stdout.strip()


class SlurmBackend:
    name = "slurm"

    def __init__(self, jobs, args):
        self.jobs = jobs
        self.args = args

    def _sbatch_options(self):
        a = self.args
        options = []
        if a.partition:
            options.append(f"--partition={a.partition}")
        if a.time_limit:
            options.append(f"--time={a.time_limit}")
        if a.mem:
            options.append(f"--mem={a.mem}")
        if a.cpus_per_task:
            options.append(f"--cpus-per-task={a.cpus_per_task}")
        return options + list(a.sbatch_arg)

    def submit(self, sweep, fabricsim, points, work):
        """Writes the array's commands and task script; submits it; returns the job id."""
        numbers = os.path.join(work.folder, f"array-{work.attempt}.txt")
        with open(numbers, "w") as f:
            f.writelines(f"{p.number}\n" for p in points)
        for p in points:
            with open(work.point_args(p), "wb") as f:
                f.write(b"".join(os.fsencode(a) + b"\0" for a in sweep.point_command(fabricsim, p, work.point_db(p))))
        script = os.path.join(work.folder, f"array-{work.attempt}.sh")
        with open(script, "w") as f:
            f.write(_TASK.format(folder=shlex.quote(work.folder),
                                 attempt=shlex.quote(work.attempt)))
        os.chmod(script, 0o755)
        out = slurm_file_name(work.folder) + f"/slurm-%A_%a-{work.attempt}.out"
        return _run(["sbatch", "--parsable", f"--array=0-{len(points) - 1}%{self.jobs}",
                     "--job-name=fabricsim-sweep", f"--output={out}", *self._sbatch_options(), script]).split(";")[0]

    def run(self, sweep, fabricsim, points, work, on_finished, stopping):
        if not points:
            return
        job = self.submit(sweep, fabricsim, points, work)
        waiting = {p.number: p for p in points}
        last_queue_check = 0.0
        while waiting:
            for number in list(waiting):
                status = work.point_status(waiting[number])
                if status is not None:
                    on_finished(waiting.pop(number), status)
            if stopping():
                subprocess.run(["scancel", job], capture_output=True)
                return
            now = time.monotonic()
            if waiting and now - last_queue_check > 2:
                last_queue_check = now
                queued = _run(["squeue", "-h", "-j", job, "-o", "%i"])
                if not queued:  # the array is gone: a task that wrote no status was killed
                    time.sleep(1)  # a status written just before it left the queue
                    for number in list(waiting):
                        point = waiting.pop(number)
                        status = work.point_status(point)
                        if status is None:
                            work.note(point, f"the Slurm task ended without an exit status (job {job}): see "
                                             f"{work.folder}/slurm-{job}_*-{work.attempt}.out")
                            status = 1
                        on_finished(point, status)
                    break
                yield len([line for line in queued.splitlines() if line.strip()])
            time.sleep(0.5)

    def submit_detached(self, sweep, fabricsim, points, work, db, argv):
        """--no-wait: the array, and a job that merges it when it ends."""
        if not points:
            print("fabricsim-sweep: nothing to run")
            return 0
        try:
            job = self.submit(sweep, fabricsim, points, work)
            merge = [a for a in argv if a != "--no-wait"] + ["--db", os.path.abspath(db), "--fabricsim", fabricsim,
                                                           "--merge-attempt", work.attempt]
            script = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..",
                                                  "scripts", "fabricsim-sweep"))
            merger = _run(["sbatch", "--parsable", f"--dependency=afterany:{job}", "--job-name=fabricsim-sweep-merge",
                           f"--output={slurm_file_name(work.folder)}/merge-{work.attempt}.out", *self._sbatch_options(),
                           f"--wrap={shlex.join([script, *merge])}"])
        except SlurmError as e:
            print(f"fabricsim-sweep: {e}")
            return 2
        print(f"fabricsim-sweep: submitted job array {job} ({len(points)} points) and merge job {merger}, "
              f"which merges them into {db} when the array ends")
        return 0
