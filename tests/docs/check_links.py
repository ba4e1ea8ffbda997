#!/usr/bin/python3
"""check_links.py [ROOT]: every relative link and image in the documentation
resolves.

Scans README.md, every *.md under docs/ (recursively), every README.md under
model/ and db/README.md. For each Markdown link or image, [text](target),
![alt](target) or a reference definition [id]: target, whose target is
relative (no scheme such as http: or mailto:), it checks that the file or
folder exists relative to the Markdown file, after dropping any #anchor. An
anchor (file.md#anchor, or #anchor for the same file) must match a heading
of the target file, slugged as GitHub does (lowercase, punctuation other
than hyphens and underscores dropped, spaces to hyphens, -1, -2 ... for
repeated headings) or an explicit <a name=...>/id=... anchor. Links inside
fenced code blocks and inline code spans are not links and are skipped.

Prints each broken link as FILE:LINE: TARGET (FILE relative to ROOT) and
exits 1, or exits 0 when there is none. ROOT defaults to the repository that
holds this script. Stdlib only, for /usr/bin/python3; importable: see
find_broken().
"""
import os
import re
import sys
from collections import namedtuple
from urllib.parse import unquote

Broken = namedtuple("Broken", "file line target reason")

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# [text](target "title") or ![alt](target); the text may hold one level of brackets.
_INLINE = re.compile(
    r"!?\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]"
    r"\(\s*(<[^>\n]*>|(?:[^\s()\\]|\\.|\([^\s()]*\))*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)", re.M)
_HTML_ANCHOR = re.compile(r"<a\s[^>]*\b(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.I)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root):
    """The documentation files under root, as paths relative to it."""
    found = []
    if os.path.isfile(os.path.join(root, "README.md")):
        found.append("README.md")
    for top, name_filter in (("docs", lambda n: n.endswith(".md")), ("model", lambda n: n == "README.md")):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name_filter(name):
                    found.append(os.path.relpath(os.path.join(folder, name), root))
    if os.path.isfile(os.path.join(root, "db", "README.md")):
        found.append(os.path.join("db", "README.md"))
    return found


def _blank_fences(lines):
    """The lines with fenced code blocks (fences included) blanked."""
    out, fence = [], None
    for line in lines:
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append("")
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and \
                    not line.strip()[len(m.group(1)):].strip():
                fence = None
            out.append("")
        else:
            out.append(line)
    return out


def _blank_code_spans(text):
    """Code spans replaced by spaces; newlines kept, so offsets keep their line."""
    return _CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def slug(heading_text):
    """GitHub's anchor for a heading, without the -N suffix of repeats."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading_text)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = text.strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in "-_ ")
    return text.replace(" ", "-")


def anchors(path):
    """Every anchor a Markdown file defines: heading slugs and explicit anchors."""
    with open(path, encoding="utf-8") as f:
        lines = _blank_fences(f.read().split("\n"))
    found, seen = set(), {}

    def add(text):
        base = slug(text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")

    for i, line in enumerate(lines):
        m = _ATX.match(line)
        if m:
            add(m.group(2) or "")
        elif i > 0 and _SETEXT.match(line) and lines[i - 1].strip() and not _ATX.match(lines[i - 1]) \
                and not re.match(r"^\s*([-*+]|\d+[.)]|>|\|)", lines[i - 1]):
            add(lines[i - 1].strip())
        found.update(_HTML_ANCHOR.findall(line))
    return found


def _inline_links(text, begin, end):
    """(offset, target) of the inline links in text[begin:end], and of the
    links inside their text (an image inside a link)."""
    found = []
    for m in _INLINE.finditer(text, begin, end):
        found.append((m.start(), m.group(1)))
        inner_end = text.rfind("](", m.start(), m.start(1))  # the end of the link text
        found.extend(_inline_links(text, m.start() + 1 + (text[m.start()] == "!"), inner_end))
    return found


def links(path):
    """(line, target) of every link and image outside code, in file order."""
    with open(path, encoding="utf-8") as f:
        lines = _blank_fences(f.read().split("\n"))
    result = []
    start = 0
    # Blocks between blank lines, so that a code span may run over a line break.
    while start < len(lines):
        while start < len(lines) and not lines[start].strip():
            start += 1
        end = start
        while end < len(lines) and lines[end].strip():
            end += 1
        block = _blank_code_spans("\n".join(lines[start:end]))
        for offset, target in _inline_links(block, 0, len(block)) + \
                [(m.start(), m.group(1)) for m in _REFERENCE.finditer(block)]:
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            result.append((start + 1 + block.count("\n", 0, offset), target))
        start = end
    return sorted(result)


def check_file(root, rel, anchor_cache=None):
    """The broken links of one Markdown file (rel: its path relative to root)."""
    anchor_cache = {} if anchor_cache is None else anchor_cache
    path = os.path.join(root, rel)
    broken = []
    for line, target in links(path):
        if not target or _SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part)
        if file_part.startswith("/"):
            resolved = os.path.join(root, file_part.lstrip("/"))
        elif file_part:
            resolved = os.path.join(os.path.dirname(path), file_part)
        else:
            resolved = path
        resolved = os.path.normpath(resolved)
        if not os.path.exists(resolved):
            broken.append(Broken(rel, line, target, "no such file or folder"))
            continue
        if anchor and os.path.isfile(resolved) and resolved.endswith(".md"):
            if resolved not in anchor_cache:
                anchor_cache[resolved] = anchors(resolved)
            if unquote(anchor) not in anchor_cache[resolved]:
                broken.append(Broken(rel, line, target, "no such heading"))
    return broken


def find_broken(root):
    """Every broken link of the documentation under root, as Broken tuples."""
    cache, broken = {}, []
    for rel in markdown_files(root):
        broken.extend(check_file(root, rel, cache))
    return broken


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    root = argv[0] if argv else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = markdown_files(root)
    broken = find_broken(root)
    for b in broken:
        print(f"{b.file}:{b.line}: {b.target}")
    if broken:
        print(f"check_links: {len(broken)} broken link(s) in {len(files)} Markdown files", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
