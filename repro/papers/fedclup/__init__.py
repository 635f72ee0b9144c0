"""FedCLUP: statistical accuracy and communication in personalized federated learning.

Rooms: ``problems`` (instances with exactly known constants), ``algorithms`` (the paper's algorithms and
baselines), ``runs`` (spec builders and run functions; no plotting, no report), ``checks`` (what each claim
observes on a run), ``experiments`` (registered experiments), ``figures``, ``audit`` (the paper's section of the
audit report) and ``summaries`` (what figures and audit both compute). Keep this file free of
code: every run of the paper imports it.
"""
