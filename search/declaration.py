"""What a search varies, optimises and requires, as declared on the command
line (--vary, --minimize, --maximize, --subject-to): parsed and checked
before anything runs, every error naming the option, its value and what is
allowed."""
import math
import re
from dataclasses import dataclass, field

from fabricpy import key_values
from fabricpy.errors import ReportError


class DeclarationError(ReportError):
    """A declaration that cannot be searched; the message is for the user (exit 2)."""


@dataclass
class Axis:
    """A varied key: a range (int or real, linear or log) or a set of choices.
    robust: every value must satisfy the constraints (:all), not a search axis."""
    key: str
    kind: str            # "int", "real" or "choice"
    low: float = None
    high: float = None
    log: bool = False
    choices: tuple = ()
    robust: bool = False

    def text(self):
        if self.kind == "choice":
            return f"{self.key}={','.join(self.choices)}" + (":all" if self.robust else "")
        low, high = (int(self.low), int(self.high)) if self.kind == "int" else (self.low, self.high)
        return f"{self.key}={low}..{high}:{self.kind}" + (":log" if self.log else "")


@dataclass
class Objective:
    name: str
    direction: str  # "minimize" or "maximize"


@dataclass
class Constraint:
    name: str
    op: str         # ">=", "<=", ">" or "<"
    bound: float

    def text(self):
        return f"{self.name} {self.op} {self.bound:g}"

    def violation(self, pessimistic):
        """How far the pessimistic end of a value's interval is from meeting
        the bound (<= 0: met), as Optuna's constraints want it."""
        gap = self.bound - pessimistic if self.wants_high() else pessimistic - self.bound
        return 1e-12 if gap == 0 and self.op in (">", "<") else gap

    def wants_high(self):
        return self.op in (">=", ">")


@dataclass
class Declaration:
    axes: list = field(default_factory=list)
    objectives: list = field(default_factory=list)
    constraints: list = field(default_factory=list)
    warmup_ps: int = None  # where run metrics start (--warmup); None: fabricpy.rates.warmup_ps's rule

    def search_axes(self):
        return [a for a in self.axes if not a.robust]

    def robust_axes(self):
        return [a for a in self.axes if a.robust]

    def figure_names(self):
        """Every figure the objectives and constraints read, each once (an
        objective may be constrained too)."""
        return list(dict.fromkeys([o.name for o in self.objectives] + [c.name for c in self.constraints]))

    def text(self):
        """The declaration as one text: part of the search's identity."""
        lines = [f"vary {a.text()}" for a in self.axes]
        lines += [f"{o.direction} {o.name}" for o in self.objectives]
        lines += [f"subject to {c.text()}" for c in self.constraints]
        if self.warmup_ps is not None:  # a search of other figures than without it
            lines.append(f"figures from {self.warmup_ps} ps")
        return "\n".join(lines)


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_CONSTRAINT = re.compile(rf"^\s*([A-Za-z_][\w.]*)\s*(>=|<=|>|<)\s*({_NUMBER})\s*$")
_PLAIN = re.compile(rf"^{_NUMBER}$")


def _end(option, key, key_type, text):
    """A range's end as a number, read as fabricsim reads a value of the key
    (fabricpy/key_values.py); a key whose type is not known here (not
    fabricsim's: a test's) takes a plain number."""
    if key_type is None:
        value = float(text) if _PLAIN.match(text) else None
        what = "a plain number"
    else:
        what = key_values.expected(key_type)
        if what is None:
            raise DeclarationError(f"{option}: {key} is a {key_type} key, not a number's: give its values as a "
                                   "list A,B,C")
        value = key_values.parse(key_type, text)
    if value is None or not math.isfinite(value):
        raise DeclarationError(f"{option}: '{text}' is not a value of {key}; expected {what}")
    return float(value)


def _range_axis(option, key, key_type, values, flags):
    low_text, high_text = (v.strip() for v in values.split("..", 1))
    low, high = _end(option, key, key_type, low_text), _end(option, key, key_type, high_text)
    if "int" in flags and "real" in flags:
        raise DeclarationError(f"{option}: a range is :int or :real, not both")
    whole = key_type is not None and key_values.whole(key_type)
    if whole and "real" in flags:
        raise DeclarationError(f"{option}: {key} takes whole numbers ({key_type}); :real does not apply")
    real = "real" in flags or (key_type is not None and not whole and "int" not in flags)
    kind = "real" if real else "int"
    if kind == "int" and not (low.is_integer() and high.is_integer()):
        raise DeclarationError(f"{option}: an :int range needs integer ends (or say :real)")
    if not low < high:
        raise DeclarationError(f"{option}: the range is empty; LOW must be below HIGH")
    log = "log" in flags
    if log and low <= 0:
        raise DeclarationError(f"{option}: a :log range needs LOW > 0")
    return Axis(key, kind, low, high, log, robust=False)


def parse_axis(text, key_type=None):
    """--vary KEY=LOW..HIGH[:int|:real][:log] or KEY=A,B,C[:all]; `key_type`
    the key's type in fabricsim --list-params (its values are read as
    fabricsim reads them), None for a key it does not declare."""
    option = f"--vary {text}"
    if "=" not in text:
        raise DeclarationError(f"{option}: expected KEY=LOW..HIGH[:int|:real][:log] or KEY=A,B,C[:all]")
    key, spec = (s.strip() for s in text.split("=", 1))
    if not re.fullmatch(r"[A-Za-z_][\w.*-]*(\[[\w,-]+\]\.[\w.-]+)?", key):  # leaf[0-7,12].cache.entries
        raise DeclarationError(f"{option}: '{key}' is not a key")
    parts = spec.split(":")
    values, flags = parts[0].strip(), [f.strip() for f in parts[1:]]
    unknown = [f for f in flags if f not in ("int", "real", "log", "all")]
    if unknown:
        raise DeclarationError(f"{option}: unknown flag ':{unknown[0]}'; allowed: :int, :real, :log, :all")
    robust = "all" in flags
    if ".." in values:
        if robust:
            raise DeclarationError(f"{option}: a robustness axis (:all) takes a list of values, e.g. "
                                   f"{key}=512,1522,9022:all")
        return _range_axis(option, key, key_type, values, flags)
    if "log" in flags or "int" in flags or "real" in flags:
        raise DeclarationError(f"{option}: :int, :real and :log apply to a range LOW..HIGH")
    choices = tuple(v.strip() for v in values.split(","))
    if not any(choices):
        raise DeclarationError(f"{option}: no values")
    if "" in choices:
        raise DeclarationError(f"{option}: an empty value (two commas, or one at an end)")
    if len(set(choices)) != len(choices):
        raise DeclarationError(f"{option}: a value is given twice")
    if key_values.expected(key_type):
        for choice in choices:
            if key_values.parse(key_type, choice) is None:
                raise DeclarationError(f"{option}: '{choice}' is not a value of {key}; expected "
                                       f"{key_values.expected(key_type)}")
    if len(choices) == 1 and not robust:
        raise DeclarationError(f"{option}: one value is nothing to search; use --set {key}={choices[0]}")
    return Axis(key, "choice", choices=choices, robust=robust)


def parse_constraint(text):
    """--subject-to "NAME OP NUMBER", OP one of >=, <=, >, <."""
    match = _CONSTRAINT.match(text)
    if not match:
        raise DeclarationError(f"--subject-to '{text}': expected NAME OP NUMBER, e.g. \"min_subflow_gbps >= 95\" "
                               "(OP: >=, <=, >, <)")
    bound = float(match.group(3))
    if not math.isfinite(bound):
        raise DeclarationError(f"--subject-to '{text}': the bound must be a finite number")
    return Constraint(match.group(1), match.group(2), bound)


def parse(vary, minimize, maximize, subject_to, key_type=lambda key: None):
    """The declaration; key_type(key): the key's type in fabricsim --list-params, or None."""
    d = Declaration()
    d.axes = [parse_axis(v, key_type(v.split("=", 1)[0].strip())) for v in vary]
    keys = [a.key for a in d.axes]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise DeclarationError(f"--vary {twice[0]}: the key is varied twice")
    if not d.search_axes():
        raise DeclarationError("nothing to search: give at least one --vary KEY=... that is not a robustness "
                               "axis (:all)")
    d.objectives = [Objective(n, "minimize") for n in minimize] + [Objective(n, "maximize") for n in maximize]
    if not d.objectives:
        raise DeclarationError("no objective: give --minimize NAME or --maximize NAME (a metric or a key)")
    names = [o.name for o in d.objectives]
    if len(set(names)) != len(names):
        raise DeclarationError(f"--minimize/--maximize {names[0]}: an objective is given twice")
    d.constraints = [parse_constraint(c) for c in subject_to]
    return d
