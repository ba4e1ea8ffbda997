"""The one exception of bad input every tool raises (analysis/, sweep/,
search/): its message is for the user, and fabricpy/tool.py turns it into
exit status 2 with that one line."""


class ReportError(Exception):
    """Bad input: the message is for the user; exit status 2."""
