"""A key's value read as fabricsim reads it, by the key's own type and unit
(`fabricsim --list-params`): the one parser of the Python tools for a
number given for a key (a search's range ends, a sweep's values). Each kind
takes what fabricsim's own parser takes for it, and nothing else: an integer
key no unit and no fraction ('4KB', '0x10', '1e2' are refused), a size key
B, KB, MB or GB (1024-based) or bytes, a duration key ps to s or
picoseconds, a real or a rate key a decimal number."""
import re
from decimal import Decimal, InvalidOperation

from fabricpy.option_values import parse_duration_ps

_INTEGER = re.compile(r"^[-+]?\d+$")
_REAL = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$")
_SIZE_SCALE = {None: 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}

# A key's type in --list-params -> (what a value is, whether it is a whole number).
NUMERIC = {"integer": ("an integer, without a unit", True), "bytes": ("a size such as 4096, 16KB or 1.5MB", True),
           "duration": ("a duration such as 10us, 0.5ms or 2000000 (ps)", True),
           "real": ("a number such as 0.5 or 1e-3", False), "rate": ("a rate in Gb/s such as 40 or 2.5", False)}


def parse(key_type, text):
    """The number `text` stands for as a value of a key of `key_type` (bytes
    for a size, picoseconds for a duration), or None when fabricsim would
    not read it so (or the type is not a number's)."""
    text = text.strip()
    if key_type == "integer":
        return int(text) if _INTEGER.match(text) else None
    if key_type in ("real", "rate"):
        return float(text) if _REAL.match(text) else None
    if key_type == "bytes":
        m = _SIZE.match(text)
        if not m:
            return None
        try:
            return int(Decimal(m.group(1)) * _SIZE_SCALE[m.group(2)])
        except InvalidOperation:
            return None
    if key_type == "duration":
        return parse_duration_ps(text)
    return None


def expected(key_type):
    """What a value of a key of `key_type` looks like, for a message; None for a type that is not a number's."""
    entry = NUMERIC.get(key_type)
    return entry[0] if entry else None


def whole(key_type):
    """Whether a key of `key_type` takes whole numbers only."""
    return NUMERIC[key_type][1]
