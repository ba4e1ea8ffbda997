"""What a sweep has done so far: on a terminal one line kept up to date
(points done, running, failed and left, elapsed time, ETA); otherwise one
line per finished point."""
import sys
import time


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total, out=sys.stderr):
        self.total = total
        self.done = self.failed = self.running = 0
        self.out = out
        self.started = time.monotonic()
        self.live = out.isatty()

    def line(self):
        finished = self.done + self.failed
        elapsed = time.monotonic() - self.started
        left = self.total - finished - self.running
        eta = "" if finished == 0 else f", ETA {_clock(elapsed / finished * (self.total - finished))}"
        return (f"sweep: {self.done} done, {self.running} running, {self.failed} failed, {left} left of "
                f"{self.total}; {_clock(elapsed)} elapsed{eta}")

    def update(self, running):
        self.running = running
        if self.live:
            self.out.write("\r" + self.line() + "\033[K")
            self.out.flush()

    def finished(self, point, ok, detail):
        if ok:
            self.done += 1
        else:
            self.failed += 1
        if self.live:
            self.out.write("\r\033[K")
        word = "done" if ok else "FAILED"
        self.out.write(f"point {point.number}/{self.total} {word} ({point.key}): {detail}\n")
        self.update(self.running)

    def left(self, point):
        """A point stopped by the runner: left to a rerun, neither done nor failed."""
        if self.live:
            self.out.write("\r\033[K")
        self.out.write(f"point {point.number}/{self.total} stopped ({point.key}): left to a rerun\n")
        self.update(self.running)

    def close(self):
        self.running = 0
        if self.live:
            self.out.write("\r\033[K")
        self.out.write(self.line().replace(", ETA", "; was ETA") + "\n")
        self.out.flush()
