"""Starts a tool from its script in scripts/. A Python package missing from
the machine is named with the Debian package that brings it; any other
failure to start is a bug here, said in one line. A stop (SIGINT, SIGTERM,
SIGHUP) before the tool takes the signals over (the runners note them and
stop their runs) ends it at once with 128 + the signal and one line, never
a traceback nor a death by the signal."""
import importlib
import signal
import sys

_DEBIAN_PACKAGES = {"numpy": "python3-numpy", "matplotlib": "python3-matplotlib", "scipy": "python3-scipy",
                    "optuna": "python3-optuna"}
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class _Stopped(BaseException):
    def __init__(self, number):
        super().__init__(number)
        self.number = number


def _stop(number, _frame):
    raise _Stopped(number)


def launch(prog, module):
    for s in STOP_SIGNALS:
        signal.signal(s, _stop)
    try:
        main = importlib.import_module(module).main
        status = main()
    except _Stopped as e:
        print(f"{prog}: stopped by signal {e.number}", file=sys.stderr)
        sys.exit(128 + e.number)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
    except ImportError as e:
        package = _DEBIAN_PACKAGES.get((e.name or "").split(".")[0])
        if package:
            sys.exit(f"{prog}: {e}; install Debian's {package} (scripts/setup.sh does) and run this with "
                     "/usr/bin/python3")
        sys.exit(f"{prog}: internal error (ImportError: {e}); please report it")
    sys.exit(status)
