"""Markdown tables and the text around them."""

# Tables longer than this are summarised in the Markdown; the CSV next to it
# has every row.
MAX_TABLE_ROWS = 32


def number(value, decimals):
    if value is None:
        return "-"
    if isinstance(value, float) and value != value:  # NaN
        return "-"
    if isinstance(value, int) and decimals == 0:
        return str(value)
    return f"{value:.{decimals}f}"


def cells(row, decimals):
    """A query row for a table: floats with `decimals`, the rest as they are."""
    return [number(c, decimals) if isinstance(c, float) else c for c in row]


def table(header, rows):
    """rows: lists of already formatted cells."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_csv(path, header, rows):
    import csv
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


def image(name, alt):
    return f"![{alt}]({name})\n"


def note(text):
    return f"> {text}\n"
