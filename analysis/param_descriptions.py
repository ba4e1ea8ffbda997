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


@functools.lru_cache(maxsize=1)
def _table():
    """{key: (unit, description)} from --list-params, or {} without a binary."""
    binary = _binary()
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
            table[fields[0]] = (fields[3], fields[-1])
    return table


def label(key):
    """'leaf.cache.entries: C: cache entries of one packet each (packets)', or the key."""
    entry = _table().get(key)
    if entry is None and key.startswith("flow."):  # flow.NAME.field: the declaration of flow.*.field
        entry = _table().get("flow.*." + key.split(".", 2)[-1])
    if entry is None:
        return key
    unit, description = entry
    return f"{key}: {description}" + (f" ({unit})" if unit not in ("-", "") and f"({unit})" not in description else "")
