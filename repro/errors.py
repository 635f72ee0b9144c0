"""Error types whose message is meant to be shown to a user as a single line.

The CLI catches :class:`ReproError` and :class:`ValueError` (raised by parameter
validation everywhere in the suite), prints ``error: <message>`` and exits with status 2,
without a traceback; :class:`Interrupted` prints its own line and exits with 130 (143 for SIGTERM, 129 for SIGHUP).
"""
import numpy as np


class ReproError(Exception):
    """Base class of the suite's user-facing errors."""


class DataError(ReproError):
    """A data file is missing, corrupted, or cannot be obtained offline."""


class ConfigError(ReproError, ValueError):
    """An experiment name, profile or configuration value is not admissible."""


class DivergenceError(ReproError, FloatingPointError):
    """An iterate or objective became non-finite or grew by orders of magnitude: the step sizes are too
    large for the problem. Raised by the algorithms (naming the method, the round and the step sizes) and
    by the runner's generic check of a run's trajectories (naming the run and its step-size parameters)."""


class RunFailed(ReproError):
    """A run stopped with a user-facing error; the message names the run (experiment, the config values
    that tell it apart from its siblings, seed) and the original one-line reason. Nothing is cached."""


class Interrupted(ReproError):
    """The user interrupted a batch (Ctrl-C); the finished runs are cached, the rest resume on rerun."""


class SolverFailure(ReproError):
    """Neither Clarabel nor SCS returned a usable answer (the problem may still be solvable)."""


def require(condition: bool, name: str, value, allowed: str) -> None:
    """Raise :class:`ConfigError` (a ``ValueError``) naming the parameter, its value and what is allowed.

    >>> require(1 > 0, "eta", 1, "eta > 0")
    """
    if not condition:
        raise ConfigError(f"{name}={value!r} is not admissible: {allowed}")


def is_int(x) -> bool:
    """An integer (Python or numpy), not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def is_real(x) -> bool:
    """A finite real number (Python or numpy); bools and strings are not."""
    return (isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))
            and bool(np.isfinite(x)))
