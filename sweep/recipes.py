"""scripts/sweep: a study family's recipe, run. A family's recipe is the file
FAMILY.recipe beside its study files (platforms/studies/, or the folder
FABRICSIM_STUDY_DIR names); fabricsim reads only the *.ini files there.

A recipe is a list of steps, one a line (a line ending in a backslash goes
on to the next), words as the shell splits them; '#' starts a comment, and
the first comment line is the family's title. The steps:

  database NAME         the database the next steps write and read; the
                        first is the default a DB argument replaces, a later
                        one is most often named from the one before
  sweep STUDY [OPTION]  scripts/fabricsim-sweep STUDY into the database, the
                        recipe's options then the user's
  tool TOOL [ARG]       scripts/TOOL (sweep-table, ber-table, fabric-report...)
  tool-last-line TOOL [ARG]
                        the same, showing only the last line of its output
  say TEXT              prints TEXT

In a step, {db} is the database and {stem} its name without '.db'.

Exit status: as the sh script before it: 0; 1 when a sweep had a failed
point (the other steps still run); a sweep's other status (2 bad input,
128 + a signal) ends the recipe there, as does a tool's failure; 2 for a bad
command line or recipe."""
import os
import re
import shlex
import signal
import subprocess
import sys

from fabricpy import tool
from fabricpy.errors import ReportError
from fabricpy.launcher import STOP_SIGNALS
from fabricpy.option_values import did_you_mean

SOURCE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
PROG = "sweep"
STEPS = ("database", "sweep", "tool", "tool-last-line", "say")


def recipe_dir():
    return os.environ.get("FABRICSIM_STUDY_DIR") or os.path.join(SOURCE, "platforms", "studies")


def _natural(name):
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def families():
    """The families that have a recipe, in natural order (E1, E2, E9, E10, ...)."""
    folder = recipe_dir()
    try:
        names = [f[:-len(".recipe")] for f in os.listdir(folder) if f.endswith(".recipe")]
    except OSError:
        names = []
    return sorted(names, key=_natural)


def usage():
    return f"usage: scripts/sweep [--list | --commands] {'|'.join(families())} [DB] [fabricsim-sweep options]"


class Recipe:
    def __init__(self, family, title, steps, path):
        self.family, self.title, self.steps, self.path = family, title, steps, path


def read_recipe(family):
    """The recipe of a family: its title and its steps [(line, verb, words)]."""
    path = os.path.join(recipe_dir(), family + ".recipe")
    if family not in families():
        raise ReportError(f"no study family '{family}' (no {family}.recipe in {recipe_dir()})"
                          + (did_you_mean(family, families()) or f"; one of {', '.join(families())}"))
    with open(path) as f:
        lines = f.read().splitlines()
    title, steps, pending, start = "", [], "", 0
    for number, line in enumerate(lines, 1):
        if not pending and not title and line.strip().startswith("#"):
            title = line.strip().lstrip("#").strip()
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text, pending = pending + line, ""
        try:
            words = shlex.split(text, comments=True)
        except ValueError as e:
            raise ReportError(f"{path}:{start}: {e}") from None
        if not words:
            continue
        if words[0] not in STEPS:
            raise ReportError(f"{path}:{start}: '{words[0]}' is not a step (one of {', '.join(STEPS)})")
        if words[0] != "say" and len(words) < 2:
            raise ReportError(f"{path}:{start}: '{words[0]}' needs a name")
        steps.append((start, words[0], words[1:]))
    if not steps or steps[0][1] != "database":
        raise ReportError(f"{path}: a recipe begins with its 'database' step")
    return Recipe(family, title, steps, path)


def stem(db):
    return db[:-len(".db")] if db.endswith(".db") else db


def commands(recipe, db_given, options, fabricsim):
    """The recipe's steps as (verb, argv or text), for the database given (or
    None) and the user's fabricsim-sweep options."""
    db = None
    out = []
    for _line, verb, words in recipe.steps:
        expand = [w.replace("{db}", db or "").replace("{stem}", stem(db or "")) for w in words]
        if verb == "database":
            db = db_given if db is None and db_given else expand[0]
        elif verb == "sweep":
            out.append((verb, ["scripts/fabricsim-sweep", "--db", db, "--fabricsim", fabricsim, *expand, *options]))
        elif verb in ("tool", "tool-last-line"):
            out.append((verb, [f"scripts/{expand[0]}", *expand[1:]]))
        else:
            out.append((verb, " ".join(expand)))
    return out


class _Forward:
    """While a step's process runs, a stop signal is passed on to it (the
    runners stop their runs and keep what finished) and remembered."""

    def __init__(self):
        self.process, self.signal = None, None

    def __call__(self, number, _frame):
        self.signal = number
        if self.process and self.process.poll() is None:
            self.process.send_signal(number)


def run_step(forward, argv, last_line):
    forward.process = subprocess.Popen(argv, stdout=subprocess.PIPE if last_line else None, text=True)
    try:
        out, _ = forward.process.communicate()
    finally:
        status = forward.process.wait()
        forward.process = None
    if last_line and out:
        lines = out.splitlines()
        if lines:
            print(lines[-1], flush=True)
    return status


def parse(argv):
    mode = "run"
    while argv and argv[0] in ("--list", "--commands", "--help", "-h"):
        mode = {"--list": "list", "--commands": "commands"}.get(argv[0], "help")
        argv = argv[1:]
    if mode in ("list", "help"):
        return mode, None, None, []
    if not argv or argv[0].startswith("-"):
        raise ReportError(f"no study family given; {usage()}" if not argv else
                          f"'{argv[0]}' is not a study family (nor --list or --commands); {usage()}")
    family, rest = argv[0], argv[1:]
    db_given = None
    if rest and rest[0] and not rest[0].startswith("-"):  # as the sh script did: "" or an option is no DB
        db_given, rest = rest[0], rest[1:]
    return mode, family, db_given, rest


def main(argv=None):
    return tool.run(PROG, lambda: _main(sys.argv[1:] if argv is None else argv))


def _main(argv):
    mode, family, db_given, options = parse(argv)
    if mode == "help":
        print(usage())
        print("Runs a study family's recipe (platforms/studies/FAMILY.recipe): its sweeps into one database, then "
              "its tables and plots. --list: the families; --commands: the commands it would run, without running "
              "them. Options after DB go to fabricsim-sweep.")
        return 0
    if mode == "list":
        for name in families():
            title = read_recipe(name).title
            print(f"{name}\t{title[len(name) + 2:] if title.startswith(name + ': ') else title}")
        return 0
    recipe = read_recipe(family)
    os.chdir(SOURCE)  # paths (the database, the plots) are the source folder's, as they always were
    fabricsim = os.environ.get("FABRICSIM") or ""
    if mode == "commands":
        steps = commands(recipe, db_given, options, fabricsim or "build/fabricsim")
        if not fabricsim:
            print("scripts/build.sh >&2")
        for verb, what in steps:
            if verb == "say":
                print(shlex.join(["echo", what]))
            else:
                print(shlex.join(what) + (" | tail -n 1" if verb == "tool-last-line" else ""))
        return 0
    if not fabricsim:  # by default scripts/build.sh brings ./build up to date
        built = subprocess.run(["scripts/build.sh"], stdout=sys.stderr)
        if built.returncode:
            return built.returncode
        fabricsim = "build/fabricsim"
    forward = _Forward()
    for s in STOP_SIGNALS:
        signal.signal(s, forward)
    status = 0
    for verb, what in commands(recipe, db_given, options, fabricsim):
        if forward.signal:  # a stop between two steps: the next one does not start
            return 128 + forward.signal
        if verb == "say":
            print(what, flush=True)
            continue
        sys.stdout.flush()
        s = run_step(forward, what, verb == "tool-last-line")
        if forward.signal:
            return 128 + forward.signal
        if verb == "sweep" and s == 1:
            status = 1  # a failed point: reported by fabricsim-sweep; the other steps go on
        elif s:
            return s if s > 0 else 128 - s
    return status
