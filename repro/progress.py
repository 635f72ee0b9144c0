"""Progress of a batch of runs: one tqdm bar per experiment, on stderr, with an ETA from measured costs.

The ETA is not extrapolated from the first finished run. Each pending run has an expected cost in seconds
from :mod:`repro.costs` (measured wall times of earlier runs of the same experiment, per unit of work).
Runs start in submission order, so an experiment is done when the work queued up to and including its last
run is done: ETA = (expected cost of that unfinished work) / workers x (observed / expected time of the runs
finished so far, once there are some). Without estimates, the bar shows tqdm's own rate.

On a terminal the bars redraw in place; when stderr is not a terminal (a log file, ``make`` output piped
somewhere) each experiment instead prints a plain line when it starts, at most every 30 seconds while it runs,
and when it is done, so that logs stay readable.
"""
from __future__ import annotations

import sys
import time


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


class Progress:
    """Bars for ``everything`` (all runs of the batch, cached ones included in the counts), created when an
    experiment's first run starts and closed when its last one finishes."""

    def __init__(self, everything, cached_keys, order, estimate, *, enabled: bool, workers: int):
        self.enabled, self.workers, self.estimate = enabled, max(1, workers), estimate
        self.total, self.done = {}, {}
        for spec in everything:
            self.total[spec.experiment] = self.total.get(spec.experiment, 0) + 1
            if spec._canonical in cached_keys:
                self.done[spec.experiment] = self.done.get(spec.experiment, 0) + 1
        self.queue = [spec._canonical for spec in order]               # unfinished runs, submission order
        self.expected = {spec._canonical: self._expect(spec) for spec in order}
        self.experiment_of = {spec._canonical: spec.experiment for spec in order}
        self.observed = self.expected_done = 0.0
        self.bars: dict = {}

    def _expect(self, spec) -> float:
        if self.estimate is None:
            return 0.0
        try:
            return max(0.0, float(self.estimate(spec)))
        except Exception:   # noqa: BLE001 - an estimate must never stop a batch
            return 0.0

    def _bar(self, experiment: str):
        if experiment not in self.bars and self.enabled and not sys.stderr.isatty():
            self.bars[experiment] = _LogLine(experiment, self.total[experiment], self.done.get(experiment, 0))
        if experiment not in self.bars and self.enabled:
            from tqdm import tqdm

            fmt = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} runs [{elapsed}{postfix}]"
            self.bars[experiment] = tqdm(total=self.total[experiment], initial=self.done.get(experiment, 0),
                                         desc=experiment, file=sys.stderr, unit="run", leave=True,
                                         bar_format=fmt if self.estimate is not None else None, mininterval=0.5,
                                         dynamic_ncols=True)
            self.started_at = getattr(self, "started_at", time.perf_counter())
        return self.bars.get(experiment)

    def _eta(self, experiment: str) -> str:
        last = max((i for i, key in enumerate(self.queue) if self.experiment_of[key] == experiment), default=-1)
        if last < 0:
            return ""
        ahead = sum(self.expected[key] for key in self.queue[:last + 1])
        speed = self.observed / self.expected_done if self.expected_done > 0 else 1.0
        return f", eta {_duration(ahead * min(max(speed, 0.2), 5.0) / self.workers)}"

    def _refresh(self) -> None:
        if self.estimate is None:
            return
        for experiment, bar in self.bars.items():
            if not bar.disable and bar.n < bar.total:
                bar.set_postfix_str(self._eta(experiment), refresh=True)

    def started(self, spec) -> None:
        bar = self._bar(spec.experiment)
        if bar is not None:
            self._refresh()

    def finished(self, spec, wall: float) -> None:
        key = spec._canonical
        if key in self.expected:
            self.queue.remove(key)
            if self.expected[key] > 0:
                self.observed += wall
                self.expected_done += self.expected[key]
        bar = self._bar(spec.experiment)
        if bar is not None:
            bar.update(1)
            if bar.n >= bar.total:
                bar.set_postfix_str("", refresh=False)
                bar.close()
            self._refresh()

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()


class _LogLine:
    """The non-terminal stand-in for a tqdm bar: plain lines on stderr (module docstring)."""

    disable = False

    def __init__(self, desc: str, total: int, initial: int):
        self.desc, self.total, self.n, self.postfix = desc, total, initial, ""
        self.start = self.last = time.perf_counter()
        self._print("started")

    def _print(self, what: str) -> None:
        elapsed = _duration(time.perf_counter() - self.start)
        print(f"{self.desc}: {self.n}/{self.total} runs {what} [{elapsed}{self.postfix}]", file=sys.stderr, flush=True)

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.postfix = text

    def update(self, k: int = 1) -> None:
        self.n += k
        if self.n >= self.total:
            self._print("done")
        elif time.perf_counter() - self.last >= 30:
            self.last = time.perf_counter()
            self._print("done so far")

    def close(self) -> None:
        pass
