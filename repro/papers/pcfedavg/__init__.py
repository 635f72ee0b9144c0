"""PC-FedAvg: personalized constrained federated averaging.

Rooms: ``problems`` (instances with exactly known constants), ``algorithms`` (the paper's algorithms and
baselines), ``runs`` (spec builders and run functions; no plotting, no report), ``checks`` (what each claim
observes on a run), ``experiments`` (registered experiments), ``figures`` and ``audit`` (with ``summaries``:
what both compute). Keep this file free of code: every run of the paper imports it.
"""
