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


def table(text):
    """[{column: cell}] of `fabricsim --list-params --format tsv`'s output: a
    heading line (PLATFORM, KEY, TYPE, DEFAULT, UNIT, ALLOWED, DESCRIPTION),
    then one line per key."""
    lines = text.splitlines()
    if not lines:
        return []
    heading = lines[0].split("\t")
    return [dict(zip(heading, line.split("\t"))) for line in lines[1:] if line]


@functools.lru_cache(maxsize=4)
def keys(binary=None):
    """{key: (type, unit, description)} from --list-params of `binary` (by
    default the one above), or {} without a binary."""
    binary = binary or _binary()
    if not binary:
        return {}
    try:
        text = subprocess.run([binary, "--list-params", "--format", "tsv"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return {row["KEY"]: (row["TYPE"], row["UNIT"], row["DESCRIPTION"]) for row in table(text)
            if re.fullmatch(r"[a-z][a-z0-9_.*]*", row.get("KEY", ""))}


def find(key, binary=None):
    """The declaration (type, unit, description) of `key`, a pattern's for
    flow.NAME.field (flow.*.field), a renamed key's by its old name, or None."""
    table = keys(binary)
    entry = table.get(key)
    if entry is None and key.startswith("flow.") and key.count(".") >= 2:
        entry = table.get("flow.*." + key.split(".", 2)[-1])
    instance = re.fullmatch(r"([a-z_]+)\[[\w,\-]+\]\.(.+)", key)
    if entry is None and instance:  # leaf[3].cache.entries: the class-wide key's (fabricsim's instance groups)
        group, rest = instance.groups()
        entry = table.get("errors.leaf_spine." + rest[len("errors."):] if group == "link" and
                          rest.startswith("errors.") else f"{group}.{rest}")
    if entry is None and table:
        entry = table.get(current_name(key, binary or _binary()))
    return entry


@functools.lru_cache(maxsize=64)
def current_name(key, binary):
    """The name fabricsim reads `key` by: the key itself, or a renamed key's
    new name for its old one (fabricsim --explain: the one rule of old
    names, config/key_names.cpp)."""
    if not binary or not re.fullmatch(r"[a-z][a-z0-9_.]*", key):
        return key
    try:
        r = subprocess.run([binary, "--explain", key], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return key
    name = r.stdout.split(" = ", 1)[0].strip() if r.returncode == 0 else ""
    return name if re.fullmatch(r"[a-z][a-z0-9_.*]*", name) else key


def label(key):
    """'leaf.cache.entries: C: cache entries of one packet each (packets)', or the key."""
    entry = find(key)
    if entry is None:
        return key
    _, unit, description = entry
    return f"{key}: {description}" + (f" ({unit})" if unit not in ("-", "") and f"({unit})" not in description else "")
