"""A sweep's points, as fabricsim lists them (`fabricsim --points`): every
point resolved and validated like a run before any runs."""
import json
import subprocess
from dataclasses import dataclass, field


class SweepError(Exception):
    """A sweep that cannot start; the message is for the user, exit 2."""


@dataclass
class Point:
    number: int  # 1 .. points
    key: str     # "key=value; key=value": the point's identity
    sets: list   # ["key=value", ...]
    warnings: list = field(default_factory=list)  # the physical constraints its values break (fabricsim's)

    def values(self):
        return [s.split("=", 1) for s in self.sets]


@dataclass
class Sweep:
    study: str
    definition: str
    base: list      # the fabricsim options every point shares: part of the sweep's identity
    points: list = field(default_factory=list)
    runtime: list = field(default_factory=list)  # options that change no result (sim.threads)

    def base_text(self):
        return " ".join(self.base)

    def point_command(self, fabricsim, point, db):
        """The command line that runs one point into its own database."""
        command = [fabricsim, *self.base, *self.runtime, "--quiet", "--db", db]
        for s in point.sets:
            command += ["--set-swept", s]
        return command


def load_sweep(fabricsim, base, sweeps):
    """Runs `fabricsim BASE --points --sweep ...`; raises SweepError with
    fabricsim's own message when a point (or the sweep) is invalid."""
    command = [fabricsim, *base, "--points"]
    for s in sweeps:
        command += ["--sweep", s]
    try:
        r = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    except OSError as e:
        raise SweepError(f"cannot run {fabricsim}: {e}") from e
    if r.returncode != 0:
        raise SweepError(r.stderr.strip() or f"{fabricsim} --points exited with status {r.returncode}")
    lines = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    head, rows = lines[0], lines[1:]
    sweep = Sweep(head["study"], head["sweep"], list(base))
    sweep.points = [Point(row["point"], row["key"], row["sets"], row.get("warnings", [])) for row in rows]
    return sweep
