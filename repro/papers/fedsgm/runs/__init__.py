"""Spec builders and run functions ``fn(config, seed[, inputs]) -> (arrays, metadata)``: no plotting, no report. Keep this file free of code: it is part of every run's code fingerprint."""
