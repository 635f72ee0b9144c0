"""Admissible values of run configs: the one-line checks that the config dataclasses of every paper's run modules
(:class:`repro.experiment.Config` subclasses) call in their ``__post_init__``, each raising a
:class:`~repro.errors.ConfigError` that names the key, the value and what is allowed."""
from __future__ import annotations

from repro.errors import is_int, is_real, require


def integer(name: str, value, low: int = 1, meaning: str = "") -> None:
    require(is_int(value) and value >= low, name, value, f"an integer >= {low}{f' ({meaning})' if meaning else ''}")


def real(name: str, value, low: float = 0.0, *, strict: bool = True, high: float | None = None) -> None:
    """A finite number > low (>= low when not ``strict``), and <= high if given."""
    ok = is_real(value) and (value > low if strict else value >= low) and (high is None or value <= high)
    span = f"{'>' if strict else '>='} {low:g}" + (f" and <= {high:g}" if high is not None else "")
    require(ok, name, value, f"a finite number {span}")


def optional_real(name: str, value, needed: bool, why: str) -> None:
    """None or a finite number > 0; a number when ``needed``."""
    if needed:
        require(is_real(value) and value > 0, name, value, f"a finite number > 0 ({why})")
    else:
        require(value is None or (is_real(value) and value > 0), name, value, "null or a finite number > 0")


def reals(name: str, values, *, allow_zero: bool = False) -> None:
    """A non-empty list of finite positive numbers (>= 0 with ``allow_zero``)."""
    ok = (isinstance(values, (list, tuple)) and len(values) >= 1
          and all(is_real(v) and (v >= 0 if allow_zero else v > 0) for v in values))
    require(ok, name, values, f"a non-empty list of finite numbers {'>=' if allow_zero else '>'} 0")


def one_of(name: str, value, options) -> None:
    require(any(value == o and type(value) is type(o) for o in options), name, value,
            f"one of {', '.join(repr(o) for o in options)}")


