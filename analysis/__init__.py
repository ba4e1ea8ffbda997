"""fabric-report: plots and a Markdown summary of fabricsim runs (see cli.py)."""
