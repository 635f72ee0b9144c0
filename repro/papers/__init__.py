"""One package per paper: ``repro.papers.<key>`` holds its problems, algorithms, runs (spec builders and run
functions), checks (claim x problem x trace -> outcomes), experiments, figures and audit section.
:mod:`repro.registry` discovers the packages; nothing lists them by hand.

A paper package kept outside this directory is found too: every directory named in the environment variable
``REPRO_PAPERS_PATH`` (separated by ``os.pathsep``) is searched like this one, so its packages import as
``repro.papers.<key>`` in the command line and in every worker process. This file is part of every run's
code fingerprint; keep it to these lines.
"""
import os

__path__ += [d for d in os.environ.get("REPRO_PAPERS_PATH", "").split(os.pathsep) if d]  # noqa: F821
