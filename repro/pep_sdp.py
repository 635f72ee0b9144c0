"""The semidefinite program of a PEPit ``PEP`` handed to cvxpy in blocks (the wrapper :func:`repro.pep.certify` solves
with).

PEPit's own cvxpy wrapper sends every scalar constraint (an interpolation condition, an initial condition, a
performance metric) to cvxpy as one expression ``c + F @ w_F + sum(G * W_G)``; building and canonicalising them one by
one took ~85 % of the CPU time of ``fedsgm.pep`` (Clarabel's own iterations ~3 %).
:class:`StackedCvxpyWrapper` sends the same rows stacked, in the order PEPit sends them: one sparse matrix for the
equalities and one for the inequalities (PEPit sends every scalar constraint before its LMIs; an LMI sent earlier
would close a block). cvxpy stuffs its conic problem by cone (equalities,
inequalities, PSD cones), each in constraint order, so the problem Clarabel receives -- every matrix entry, every row
in its place -- is the one PEPit's wrapper builds, bit for bit (``tests/test_pep.py`` compares them), and so are its
iterates, its status, the Gram matrix and the dual values PEPit reconstructs its certificate from.

Registered with PEPit under :data:`WRAPPER` on import: ``problem.solve(wrapper=WRAPPER, safe_mode=False, ...)``
(``safe_mode`` would look for a Python package of that name and fall back to PEPit's wrapper).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from PEPit.constraint import Constraint
from PEPit.tools.expressions_to_matrices import expression_to_matrices
from PEPit.wrappers import WRAPPERS
from PEPit.wrappers.cvxpy_wrapper import CvxpyWrapper

#: the name the wrapper is registered under in PEPit's table of wrappers
WRAPPER = "cvxpy_stacked"

__all__ = ["WRAPPER", "StackedCvxpyWrapper"]


class StackedCvxpyWrapper(CvxpyWrapper):
    """PEPit's cvxpy wrapper with the scalar constraints sent in blocks (module docstring). Each constraint sent keeps
    the cvxpy constraint and row its dual value is read from (``_handles``, in the order they were sent)."""

    def __init__(self, verbose=1):
        super().__init__(verbose=verbose)
        self._pending: list[Constraint] = []
        self._handles: list[tuple] = []

    def send_constraint_to_solver(self, constraint):
        if constraint.equality_or_inequality not in ("equality", "inequality"):
            raise ValueError(f"the constraint {constraint.get_name()} is neither an equality nor an inequality: "
                             f"{constraint.equality_or_inequality!r}")
        self._list_of_constraints_sent_to_solver.append(constraint)
        self._pending.append(constraint)

    def send_lmi_constraint_to_solver(self, psd_matrix):
        self._flush()
        first = len(self._list_of_solver_constraints)      # PEPit's wrapper appends M >> 0, then M's entries
        super().send_lmi_constraint_to_solver(psd_matrix)
        self._handles.append((self._list_of_solver_constraints[first], None))

    def _rows(self, constraints: list[Constraint]):
        """The stacked cvxpy expression of ``constraints``: the rows of :func:`expression_to_matrices`, G entries in
        column-major order."""
        import cvxpy as cp

        rows = [expression_to_matrices(c.expression) for c in constraints]
        on_G = sp.csr_matrix(np.array([g.ravel(order="F") for g, _, _ in rows]))
        on_F = sp.csr_matrix(np.array([f for _, f, _ in rows]))
        constant = np.array([c for _, _, c in rows], dtype=float)
        return on_F @ self.F + on_G @ cp.vec(self.G, order="F") + constant

    def _flush(self) -> None:
        """Send the pending scalar constraints: one block of equalities, one of inequalities."""
        blocks = {}
        for kind in ("equality", "inequality"):
            group = [c for c in self._pending if c.equality_or_inequality == kind]
            if group:
                expression = self._rows(group)
                blocks[kind] = expression == 0 if kind == "equality" else expression <= 0
                self._list_of_solver_constraints.append(blocks[kind])
        position = dict.fromkeys(blocks, 0)
        for c in self._pending:
            kind = c.equality_or_inequality
            self._handles.append((blocks[kind], position[kind]))
            position[kind] += 1
        self._pending = []

    def generate_problem(self, objective):
        self._flush()
        return super().generate_problem(objective)

    def _recover_dual_values(self):
        """The residual (dual of G >> 0) and each sent constraint's dual value: a float for a scalar constraint (as
        PEPit's wrapper gives), the matrix of an LMI."""
        residual = self.prob.constraints[0].dual_value
        duals = [float(np.ravel(con.dual_value)[row]) if row is not None else con.dual_value
                 for con, row in self._handles]
        return [residual, *duals], residual


WRAPPERS.setdefault(WRAPPER, StackedCvxpyWrapper)
