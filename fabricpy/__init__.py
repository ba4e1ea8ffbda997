"""The Python base that analysis/, sweep/ and search/ share: starting a tool
from scripts/, its command line and exit statuses, option values, the
database's schema versions and lock waits, 95 % intervals, Markdown tables,
key descriptions and the one figure style."""
