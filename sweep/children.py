"""The fabricsim processes the runner starts (`--check-db`, `--points`, the
points): each dies with the runner, also when the runner is killed outright
(SIGKILL, which it cannot catch): the kernel sends the child SIGTERM when its
parent dies (PR_SET_PDEATHSIG), and fabricsim then writes out what it has and
stops, so that no point runs on unowned."""
import ctypes
import os
import signal
import subprocess

_PR_SET_PDEATHSIG = 1


class Stopped(Exception):
    """The runner was told to stop while a child ran; the child was stopped."""


def _dies_with(runner):
    def arrange():  # in the child, between fork and exec
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != runner:  # the runner died before the signal was arranged
            os._exit(128 + signal.SIGTERM)
    return arrange


def start(command, **options):
    """subprocess.Popen(command, **options), tied to the runner's life."""
    return subprocess.Popen(command, preexec_fn=_dies_with(os.getpid()), **options)


def run(command, stopping, timeout=3600):
    """Runs `command` to its end with its output captured, as subprocess.run;
    raises Stopped (after stopping it) once stopping() is true, and
    subprocess.TimeoutExpired after `timeout` seconds."""
    process = start(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    waited = 0.0
    try:
        while True:
            try:
                out, err = process.communicate(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                waited += 0.1
                if stopping() or waited >= timeout:
                    process.terminate()
                    process.communicate()
                    if stopping():
                        raise Stopped() from None
                    raise subprocess.TimeoutExpired(command, timeout) from None
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if stopping():
        raise Stopped()
    return subprocess.CompletedProcess(command, process.returncode, out, err)
