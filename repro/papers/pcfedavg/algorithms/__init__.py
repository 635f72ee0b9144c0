"""The paper's algorithms and the baselines it compares against, as functions of (problem, parameters, Generator). Keep this file free of code: it is part of every run's code fingerprint."""
