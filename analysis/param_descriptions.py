"""What a configuration key means, in the words of `fabricsim
--list-params` (the keys' one declaration), for figure labels: the
fabricsim binary named by $FABRICSIM_BINARY or $FABRICSIM, or the build's
(build/fabricsim). Without a binary a label is the key itself."""
import functools
import os
import re
import subprocess

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _binary():
    for candidate in (os.environ.get("FABRICSIM_BINARY"), os.environ.get("FABRICSIM"),
                      os.path.join(SOURCE, "build", "fabricsim")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@functools.lru_cache(maxsize=4)
def keys(binary=None):
    """{key: (type, unit, description)} from --list-params of `binary` (by
    default the one above), or {} without a binary."""
    binary = binary or _binary()
    if not binary:
        return {}
    try:
        text = subprocess.run([binary, "--list-params"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    table = {}
    for line in text.splitlines():
        fields = re.split(r"\s{2,}", line.strip())
        if len(fields) >= 6 and re.fullmatch(r"[a-z][a-z0-9_.*]*", fields[0]):
            table[fields[0]] = (fields[1], fields[3], fields[-1])
    return table


def find(key, binary=None):
    """The declaration (type, unit, description) of `key`, a pattern's for
    flow.NAME.field (flow.*.field), or None."""
    table = keys(binary)
    entry = table.get(key)
    if entry is None and key.startswith("flow.") and key.count(".") >= 2:
        entry = table.get("flow.*." + key.split(".", 2)[-1])
    return entry


def label(key):
    """'leaf.cache.entries: C: cache entries of one packet each (packets)', or the key."""
    entry = find(key)
    if entry is None:
        return key
    _, unit, description = entry
    return f"{key}: {description}" + (f" ({unit})" if unit not in ("-", "") and f"({unit})" not in description else "")
