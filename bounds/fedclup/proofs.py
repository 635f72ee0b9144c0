"""FedCLUP's displayed proof steps: none can be listed from the paper copy the suite has.

The copy keeps the proofs' prose (Appendix A, "Proof of statistical convergence"; Appendix B, the algorithmic
convergence of Theorem 2 and Corollary 2; B.5, Algorithm 2) but its mathematics is stripped: every display is
missing, so neither the displays nor their number can be read from it. The suite's FedCLUP bounds are therefore
encoded as derived explicit-constant versions (provenance ``derived`` in :mod:`bounds.fedclup.claims`) and checked as
claims; ``NO_INVENTORY`` is the reason the report prints in place of a coverage table.
"""
from __future__ import annotations

DISPLAYS: tuple = ()
NO_INVENTORY = ("the paper copy's mathematics is stripped (the proofs' prose survives, every display is missing), so "
                "its displayed proof steps cannot be listed; the derived explicit-constant claims stand in for them")
