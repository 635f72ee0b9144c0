"""FedSGM: switching gradient methods for constrained federated learning with compression.

Rooms: ``problems`` (instances with exactly known constants), ``algorithms`` (the paper's algorithms and
baselines), ``runs`` (spec builders and run functions; no plotting, no report), ``checks`` (what each claim
observes on a run), ``experiments`` (registered experiments), ``figures``, ``audit`` and ``summaries`` (what the
figures and the audit both compute from results). Keep this file free of code: every run of the paper imports it.
"""
