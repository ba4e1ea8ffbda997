"""A sweep's points, as fabricsim lists them (`fabricsim --points`): every
point resolved and validated like a run before any runs."""
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field

from fabricpy.errors import ReportError

from . import children


class SweepError(ReportError):
    """A sweep that cannot start; the message is for the user, exit 2."""


@dataclass(slots=True)  # up to sweep.max_points of them
class Point:
    number: int  # 1 .. points
    key: str     # "key=value; key=value": the point's identity
    sets: list   # ["key=value", ...]
    warnings: tuple = ()  # the physical constraints its values break (fabricsim's)

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


def check_database(fabricsim, db, stopping):
    """Refuses a --db that cannot keep the runs, by fabricsim's own rule
    (`fabricsim --check-db`: no URI, no database in memory, no empty name,
    no directory); raises SweepError naming the option, the value and why."""
    r = _fabricsim(fabricsim, [fabricsim, "--check-db", db], stopping)
    if r.returncode != 0:
        raise SweepError(_said(r, fabricsim, "--check-db"))


def load_sweep(fabricsim, base, sweeps, stopping):
    """Runs `fabricsim BASE --points --sweep ...`; raises SweepError with
    fabricsim's own message when a point (or the sweep) is invalid, and
    children.Stopped when the runner is told to stop meanwhile."""
    command = [fabricsim, *base, "--points"]
    for s in sweeps:
        command += ["--sweep", s]
    r = _fabricsim(fabricsim, command, stopping)
    if r.returncode != 0:
        raise SweepError(_said(r, fabricsim, "--points"))
    _pass_on_notes(r.stderr)
    lines = iter(r.stdout.splitlines())
    head = json.loads(next(lines))
    sweep = Sweep(head["study"], head["sweep"], list(base))
    for line in lines:
        row = json.loads(line)
        sweep.points.append(Point(row["point"], row["key"], row["sets"], tuple(row["warnings"])))
    return sweep


_told = set()  # the notes said already (a search lists its points batch by batch)


def _pass_on_notes(stderr):
    """fabricsim's notes on the sweep (an old key name and its new one), each said once, as the tool's."""
    for line in stderr.splitlines():
        if line.startswith("fabricsim: note: ") and line not in _told:
            _told.add(line)
            print(f"{os.path.basename(sys.argv[0]) or 'fabricsim-sweep'}: {line[len('fabricsim: '):]}",
                  file=sys.stderr)


def _said(result, fabricsim, mode):
    """What fabricsim said when it refused, for the runner to say as its own."""
    message = result.stderr.strip() or f"{fabricsim} {mode} exited with status {result.returncode}"
    return message[len("fabricsim: "):] if message.startswith("fabricsim: ") else message


def _fabricsim(fabricsim, command, stopping):
    try:
        return children.run(command, stopping)
    except OSError as e:
        raise SweepError(f"cannot run {fabricsim}: {e}") from e
    except subprocess.TimeoutExpired as e:
        raise SweepError(f"{fabricsim} did not answer within {e.timeout:.0f} s: {' '.join(command[1:])[:200]}") from e
