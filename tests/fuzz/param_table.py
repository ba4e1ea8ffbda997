"""The keys of `fabricsim --list-params --format tsv`: name, type, default, unit and the
ALLOWED column, with the printed bounds of numeric keys as text (exactly as
printed, so that the fuzzer types them back in as a user would)."""

import subprocess
from dataclasses import dataclass, field

# Units the parser takes after a number; "(MHz)" is a note, not part of a bound.
PARSED_UNITS = ("ps", "B", "Gb/s")
INTEGER_TYPES = ("integer", "duration", "bytes", "int_list")
REAL_TYPES = ("real", "rate")


@dataclass
class Param:
    key: str
    type: str
    default: str
    unit: str
    allowed: str
    min: str | None = None  # printed bound, without the unit
    max: str | None = None
    bound_unit: str = ""    # "ps", "B", "Gb/s" or ""
    choices: list = field(default_factory=list)
    platform: str = ""      # "" for the keys every platform reads

    def concrete_key(self, instance="fz"):
        return self.key.replace("*", instance)


def _parse_bounds(param):
    words = param.allowed.split()
    if param.type == "choice":
        param.choices = [w.rstrip(",") for w in words[2:]]
        return
    if param.type not in INTEGER_TYPES + REAL_TYPES:
        return
    if words and words[-1] in PARSED_UNITS:
        param.bound_unit = words.pop()
    words = [w for w in words if not w.startswith("(")]
    if len(words) == 3 and words[1] == "..":
        param.min, param.max = words[0], words[2]
    elif len(words) == 2 and words[0] == ">=":
        param.min = words[1]
    elif len(words) == 2 and words[0] == "<=":
        param.max = words[1]


def read_params(binary, env):
    """Every declared key, from the table --list-params --format tsv prints
    (one line per key, tab-separated, under a heading line)."""
    text = subprocess.run([binary, "--list-params", "--format", "tsv"], env=env, check=True, capture_output=True,
                          text=True).stdout
    lines = text.splitlines()
    heading = lines[0].split("\t")
    params = []
    for line in lines[1:]:
        row = dict(zip(heading, line.split("\t")))
        param = Param(row["KEY"], row["TYPE"], row["DEFAULT"], row["UNIT"], row["ALLOWED"], platform=row["PLATFORM"])
        _parse_bounds(param)
        params.append(param)
    return params
