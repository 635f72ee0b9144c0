"""Experiments of every paper: ``<paper>.py`` (registered experiments, figures, audit section) and
its run modules. The shared contract is in :mod:`.base`; the list of papers in :mod:`repro.registry`.

Keep this file free of code: every run function imports this package, so its content is part of
every run's code fingerprint.
"""
