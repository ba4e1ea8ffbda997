"""Starts a tool from its script in scripts/. A Python package missing from
the machine is named with the Debian package that brings it; any other
failure to start is a bug here, said in one line."""
import importlib
import sys

_DEBIAN_PACKAGES = {"numpy": "python3-numpy", "matplotlib": "python3-matplotlib", "scipy": "python3-scipy",
                    "optuna": "python3-optuna"}


def launch(prog, module):
    try:
        main = importlib.import_module(module).main
    except ImportError as e:
        package = _DEBIAN_PACKAGES.get((e.name or "").split(".")[0])
        if package:
            sys.exit(f"{prog}: {e}; install Debian's {package} (scripts/setup.sh does) and run this with "
                     "/usr/bin/python3")
        sys.exit(f"{prog}: internal error (ImportError: {e}); please report it")
    sys.exit(main())
