"""Where runs execute: in this process, in a local pool of worker processes, or on a dask cluster.

All three backends take a callable and its arguments (the runner's ``execute(spec, inputs)``) and hand back
finished runs as they complete; :mod:`repro.runner` does the caching and the bookkeeping. Results are
bit-identical across backends because each run seeds itself and runs with single-threaded BLAS.

* **Sequential** (``jobs=1``): one run at a time, in submission order, in this process.
* **Local pool** (``jobs>=2``): at most ``jobs`` runs submitted at a time (``capacity``), so that the runner
  picks the next run by priority when a worker frees up, rather than a run made ready late (one that needed
  another's result) waiting behind everything queued before it. The pool is
  :class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method. One pool serves a whole ``run_all`` call, so a worker that loaded a data set keeps it (per-process caches)
  for every later run of the batch, whatever experiment it belongs to. We do not use joblib's loky executor
  here: its memory-leak safeguard restarts a worker whose memory grows by 300 MB after its first task, which
  is exactly what loading MNIST or CIFAR-10 does (a restart warning and a reload per worker). Workers ignore
  SIGINT; on Ctrl-C the parent terminates them, so no worker prints a traceback. A worker whose parent is gone
  (killed by SIGKILL or SIGTERM) exits within a second instead of lingering.
* **Dask** (``scheduler``: an address, a ``distributed.Client`` or a cluster): futures on the cluster. An
  address is checked for form before anything else; the connection, dask's handshake included, times out after
  ``$REPRO_DASK_TIMEOUT`` seconds (default 10) with a one-line error, also when a server accepts and never answers
  or answers with something else than dask's protocol (:func:`_handshake`). A worker that dies during a batch costs
  nothing (the scheduler runs its tasks again elsewhere); a scheduler that goes away ends the batch with a one-line
  error, the runs finished before it cached (a rerun resumes).
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import re
import signal
import threading
import time
from typing import Any, Callable

from .errors import ConfigError, ReproError

DASK_ADDRESS_ENV = "REPRO_DASK_ADDRESS"
DASK_TIMEOUT_ENV = "REPRO_DASK_TIMEOUT"
_ADDRESS_RE = re.compile(r"^(tcp|tls|inproc|ucx|ws|wss)://[A-Za-z0-9_.\-\[\]:]+?(:(\d{1,5}))?/?$")


class _Sequential:
    """Runs the queued calls one by one, in order, when results are asked for."""

    capacity = 1

    def __init__(self, call: Callable):
        self.call, self.queue = call, collections.deque()

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    @property
    def in_flight(self) -> int:
        return len(self.queue)

    def submit(self, spec, inputs) -> None:
        self.queue.append((spec, inputs))

    def completed(self) -> list:
        spec, inputs = self.queue.popleft()
        try:
            return [(spec, self.call(spec, inputs))]
        except Exception as exc:   # noqa: BLE001 - handed to the runner, which decides how to report it
            return [(spec, exc)]

    def abort(self) -> None:
        self.queue.clear()

    def close(self) -> None:
        pass


def _worker_setup(parent: int) -> None:
    """In each pool worker: ignore SIGINT and SIGHUP (sent to the whole process group by Ctrl-C and by a terminal
    that closes; the parent handles them and stops the workers), and exit as soon as the parent is gone (killed with
    SIGKILL it cannot stop them), checked every second. SIGTERM keeps its default: it is how the parent stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):                         # POSIX only
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (the process that frees the pool's semaphores) with SIGHUP ignored,
    as it ignores SIGINT and SIGTERM itself: a hang-up sent to the process group would otherwise kill it, and the
    semaphores of a pool stopped cleanly would be reported leaked (an ignored signal stays ignored across exec)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGHUP"):
        return                                          # the pool starts it itself (no SIGHUP: not POSIX)
    from multiprocessing import resource_tracker
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
    finally:
        signal.signal(signal.SIGHUP, previous)


class _Pool:
    """A spawn-started process pool (module docstring)."""

    def __init__(self, call: Callable, jobs: int):
        self.call, self.futures, self.capacity = call, {}, jobs
        _start_resource_tracker()
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_setup,
            initargs=(os.getpid(),))

    @property
    def busy(self) -> bool:
        return bool(self.futures)

    @property
    def in_flight(self) -> int:
        return len(self.futures)

    def submit(self, spec, inputs) -> None:
        self.futures[self.executor.submit(self.call, spec, inputs)] = spec

    def completed(self) -> list:
        done, _ = concurrent.futures.wait(self.futures, return_when=concurrent.futures.FIRST_COMPLETED)
        out = []
        for future in done:
            spec = self.futures.pop(future)
            try:
                out.append((spec, future.result()))
            except Exception as exc:   # noqa: BLE001 - handed to the runner
                out.append((spec, exc))
        return out

    def abort(self) -> None:
        """Cancel what is queued and terminate the workers (a running run cannot be cancelled otherwise)."""
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(timeout=10)
        self.futures.clear()

    def close(self) -> None:
        self.executor.shutdown(wait=True)


def _scheduler_lost() -> tuple:
    """What a dask future's result raises when the scheduler went away, which of them depending on timing: the task
    cancelled (distributed's FutureCancelledError derives from CancelledError) or the connection closing while the
    result is fetched (CommClosedError). A run's own exception is re-raised as its own type, never one of these."""
    from distributed.comm.core import CommClosedError
    return concurrent.futures.CancelledError, CommClosedError


class _Dask:
    """Futures on a dask.distributed cluster. Everything ready is submitted at once (``capacity`` None): the
    cluster's scheduler, which knows how many workers it has, decides what runs when. While the batch runs, the logs
    of distributed (its client's reconnection attempts, a worker's restart) are silenced: what goes wrong is reported
    by the runner in one line."""

    capacity = None

    def __init__(self, call: Callable, client, own: bool):
        from distributed import as_completed

        self.call, self.client, self.own = call, client, own
        self.futures, self.stream = {}, as_completed(loop=client.loop)
        self.quiet = contextlib.ExitStack()
        self.quiet.enter_context(_quiet())

    @property
    def busy(self) -> bool:
        return bool(self.futures)

    @property
    def in_flight(self) -> int:
        return len(self.futures)

    def submit(self, spec, inputs) -> None:
        future = self.client.submit(self.call, spec, inputs, pure=False)
        self.futures[future.key] = spec
        self.stream.add(future)

    def completed(self) -> list:
        """The finished runs; a run the cluster cancelled (this backend cancels only in :meth:`abort`, after which
        nothing is asked of it) or whose result could not be fetched because the connection closed means that the
        scheduler went away: a one-line ReproError, the runs stored so far stay cached. A worker that dies is not an
        error: the scheduler runs its tasks again on another worker."""
        out = []
        for future in self.stream.next_batch(block=True):
            spec = self.futures.pop(future.key)
            try:
                out.append((spec, future.result()))
            except _scheduler_lost() as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise ReproError(f"the dask scheduler stopped serving this batch ({reason}); the runs finished "
                                 "before it are cached: rerun to resume") from None
            except Exception as exc:   # noqa: BLE001 - handed to the runner
                out.append((spec, exc))
        return out

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.client.cancel(list(self.stream.futures))
        self.futures.clear()
        self.close()

    def close(self) -> None:
        if self.own:
            with contextlib.suppress(Exception):
                self.client.close()
            self.own = False
        self.quiet.close()


def check_address(address: str, source: str) -> str:
    """A dask scheduler address such as ``tcp://127.0.0.1:8786``; a one-line ConfigError otherwise."""
    match = _ADDRESS_RE.match(address) if isinstance(address, str) else None
    port = match.group(3) if match else None
    if not match or (port is not None and not 1 <= int(port) <= 65535):
        raise ConfigError(f"{source}={address!r} is not admissible: a dask scheduler address such as "
                          "'tcp://127.0.0.1:8786' (protocol tcp, tls, inproc, ucx, ws or wss; host; port 1-65535)")
    return address


@contextlib.contextmanager
def _quiet(logger_names=("distributed", "tornado", "asyncio")):
    loggers = [logging.getLogger(name) for name in logger_names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _timeout() -> float:
    raw = os.environ.get(DASK_TIMEOUT_ENV, "10")
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{DASK_TIMEOUT_ENV}={raw!r} is not admissible: a number of seconds > 0")
    return value


def _handshake(address: str, timeout: float) -> None:
    """Open one connection to ``address`` and exchange dask's handshake, all within ``timeout`` seconds (the
    ``timeout`` of ``distributed.Client`` bounds the TCP connect only: a server that accepts and never answers would
    hang it, and one that answers with something else than dask's protocol fails deep inside it). Raises
    ``TimeoutError`` when nothing answered in time, anything else when what answered is not a dask scheduler. The
    connection is made as the client would make it (its TLS settings from dask's configuration); an ``inproc://``
    scheduler lives in this process and is not probed."""
    from distributed.comm import connect
    from distributed.security import Security
    if address.startswith("inproc://"):
        return
    settings = Security().get_connection_args("client")

    async def exchange() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=timeout, **settings), timeout)
        if not isinstance(getattr(comm, "remote_info", None), dict):
            raise ValueError("the handshake is not a dask one")
        await comm.close()
    with concurrent.futures.ThreadPoolExecutor(1) as thread:      # an event loop of its own: also from a notebook
        thread.submit(asyncio.run, exchange()).result()


def _connect(address: str, source: str):
    """A ``distributed.Client`` of the scheduler at ``address``, once it answered dask's handshake within
    ``$REPRO_DASK_TIMEOUT`` seconds; a one-line :class:`ReproError` otherwise (a closed port, a server that never
    answers, a server that is not dask)."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(f"{source}={address!r} needs dask.distributed: pip install -e '.[dask]'") from None
    timeout = _timeout()
    try:
        with _quiet():
            _handshake(address, timeout)
    except (OSError, TimeoutError, asyncio.TimeoutError) as exc:      # asyncio's own class before Python 3.11
        raise ReproError(f"{source}={address!r} is not reachable: no dask scheduler answered within {timeout:g} s "
                         f"({type(exc).__name__}); start one with `dask scheduler` or leave it unset") from None
    except Exception as exc:   # noqa: BLE001 - whatever the server sent broke dask's protocol
        raise ReproError(f"{source}={address!r} is not a dask scheduler: what answered there does not speak dask's "
                         f"protocol ({type(exc).__name__}); check the address") from None
    try:
        with _quiet():
            return Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:   # noqa: BLE001 - it answered the handshake, then failed: one line all the same
        raise ReproError(f"{source}={address!r} answered but no client could start within {timeout:g} s "
                         f"({type(exc).__name__}); check the scheduler") from None


class _Factory:
    """Makes the backend when there is work (no pool is started, no cluster contacted, for a fully cached
    batch). ``workers`` is how many runs execute at once (for ETAs)."""

    def __init__(self, make: Callable, workers: int):
        self.make, self.workers = make, workers

    @contextlib.contextmanager
    def __call__(self):
        backend = self.make()
        try:
            yield backend
        finally:
            backend.close()


def choose(scheduler: Any, jobs: int, call: Callable) -> _Factory:
    """The backend running ``call`` (the runner's ``execute``; a module-level function, so that it pickles) for
    ``scheduler`` (explicit, else ``$REPRO_DASK_ADDRESS``, else none) and ``jobs``; argument errors are raised now,
    before any work."""
    source = "scheduler"
    if scheduler is None and os.environ.get(DASK_ADDRESS_ENV):
        scheduler, source = os.environ[DASK_ADDRESS_ENV], DASK_ADDRESS_ENV
    if scheduler is None or (isinstance(scheduler, str) and not scheduler):
        if jobs == 1:
            return _Factory(lambda: _Sequential(call), 1)
        return _Factory(lambda: _Pool(call, jobs), jobs)
    if isinstance(scheduler, str):
        check_address(scheduler, source)
        return _Factory(lambda: _Dask(call, _connect(scheduler, source), own=True), max(jobs, 2))
    if hasattr(scheduler, "scheduler_address"):            # a cluster object (LocalCluster, ...)
        address = scheduler.scheduler_address
        return _Factory(lambda: _Dask(call, _connect(address, source), own=True), max(jobs, 2))
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover
        Client = ()
    if Client and isinstance(scheduler, Client):
        return _Factory(lambda: _Dask(call, scheduler, own=False), max(jobs, 2))
    raise ValueError(f"scheduler={scheduler!r} is not admissible: a dask scheduler address such as "
                     "'tcp://127.0.0.1:8786', a distributed.Client, a cluster, or None")
