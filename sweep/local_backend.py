"""The local backend: N fabricsim processes at a time on this machine, each
point into its own database file in the sweep's work folder."""
import os
import signal
import subprocess
import time

from . import children


class LocalBackend:
    name = "local"

    def __init__(self, jobs):
        self.jobs = jobs

    def run(self, sweep, fabricsim, points, work, on_finished, stopping):
        """Runs `points`; calls on_finished(point, exit_status, stopped) as
        each ends, `stopped` telling that the runner stopped it. Stops
        starting new points once stopping() is true, and then stops the
        running ones (SIGTERM: fabricsim writes its run out)."""
        waiting = list(points)
        running = {}  # Popen -> (point, log file)
        stopped = set()  # the processes this runner told to stop
        try:
            while waiting or running:
                while waiting and len(running) < self.jobs and not stopping():
                    point = waiting.pop(0)
                    db = work.point_db(point)
                    log = open(work.point_log(point), "w")
                    command = sweep.point_command(fabricsim, point, db)
                    # A session of its own: a Ctrl-C at the terminal reaches the runner only, which stops it.
                    process = children.start(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
                    running[process] = (point, log)
                if stopping():
                    waiting.clear()
                    for process in running:
                        if process.poll() is None and process not in stopped:
                            process.send_signal(signal.SIGTERM)
                            stopped.add(process)
                for process in [p for p in running if p.poll() is not None]:
                    point, log = running.pop(process)
                    log.close()
                    status = process.returncode
                    on_finished(point, 128 - status if status < 0 else status, process in stopped)
                yield len(running)
                time.sleep(0.05)
        finally:
            for process, (point, log) in running.items():
                if process.poll() is None:
                    process.kill()
                    process.wait()
                log.close()


def default_jobs():
    return os.cpu_count() or 1
