"""PC-FedAvg (Ebrahimi, Burbano, Yousefian; arXiv 2603.19617v1): the audit findings -- entry points.

The symbolic derivations and proof-step checks whose rows and prose the audit report shows, kept
apart from the claims in :mod:`bounds.pcfedavg.claims` so that editing the report's wording does not change
the code fingerprint of any run (run functions import :mod:`bounds.pcfedavg.claims`, never this module nor the
modules below).

Entry points (what :mod:`repro.papers.pcfedavg.audit`, the notebook and the tests call)
-------------------------------------------------------------------------------------
* :func:`proof_steps`: every labelled step of Lemmas 4.3-4.6, Props. 4.7-4.8 and Theorem 3.4
  re-derived from its stated inputs (identity / valid inequality / not implied / not checked);
* :func:`audit_findings`: the symbolic findings (items a-h, further proof findings, Theorem 3.4's rates and
  Remarks 3.5-3.6), in a fixed order;
* re-exported from the modules that compute them: :func:`complexity_table`, :func:`compare_rates`,
  :func:`leading_eps_powers`, :func:`remark36_exponents` (Theorem 3.4, Remarks 3.5-3.6), :func:`settings_findings`,
  :func:`step_size_bound` (Section 5's step sizes), :func:`interval_instance`, :data:`LEMMA45_M_INSTANCE`,
  :func:`check_lemma45`, :func:`check_prop47`, :func:`check_eq12`, :func:`finding_lemma45_range`,
  :func:`finding_l45e_index`, :func:`block_matrices` and the row statuses :data:`IDENTITY`, :data:`VALID`, :data:`NOT_IMPLIED`,
  :data:`NOT_CHECKED`.

Where the computations live
---------------------------
* :mod:`~bounds.pcfedavg.derivation_tools`: row statuses and constructor, block matrices, interval proofs, the
  printed-vs-re-derived comparison;
* :mod:`~bounds.pcfedavg.exact_instances`: the exact n = 1 interval instances (x*, x*_rho, M);
* :mod:`~bounds.pcfedavg.step_rows_lemma43_to_prop47`: proof-step rows of Lemmas 4.3-4.6 and Prop. 4.7;
* :mod:`~bounds.pcfedavg.step_rows_prop48_thm34`: proof-step rows of Prop. 4.8 and Theorem 3.4;
* :mod:`~bounds.pcfedavg.prop48_norm_facts`: the facts quoted before (11), Jensen, Cauchy-Schwarz, and the rows
  (P4.8-f), (10), (11), (P4.8-h), (iii) resting on them;
* :mod:`~bounds.pcfedavg.lemma45_prop47_findings`: Lemma 4.5 and Prop. 4.7 re-derived, and their findings;
* :mod:`~bounds.pcfedavg.prop48_findings`: Prop. 4.8 (i), (ii), (12), (P4.8-g), (P4.8-c), (iii);
* :mod:`~bounds.pcfedavg.stepsize_schedule_findings`: the step-size hypothesis, its implications, K = T_r, the
  experiment settings;
* :mod:`~bounds.pcfedavg.thm34_rates`: the communication complexity of Theorem 3.4, Remarks 3.5-3.6;
* :mod:`~bounds.pcfedavg.lemma41_lemma61_findings`: Lemma 4.1's norms, Lemma 6.1 (a).

Everything expensive is cached (``functools.lru_cache``); importing the modules only builds
expressions.
"""
from __future__ import annotations

import copy
import functools

from .derivation_tools import (GAMMA_LG, GAMMA_LG_HM1, IDENTITY, NOT_CHECKED, NOT_IMPLIED, VALID,
                               block_matrices)
from .exact_instances import LEMMA45_M_INSTANCE, interval_instance
from .lemma41_lemma61_findings import finding_lemma41_norms, finding_lemma61_identity
from .lemma45_prop47_findings import (check_lemma45, check_prop47, finding_l45a_needs_common_iterate,
                                      finding_l45d_bound_by_M, finding_l45e_index, finding_lemma45_range)
from .prop48_findings import (check_eq12, check_prop48_i, finding_p48c_half_coefficient, finding_p48g_root_bound,
                              finding_prop48_ii_terms, finding_prop48_iii_gradient_point)
from .prop48_norm_facts import finding_facts_before_eq11
from .step_rows_lemma43_to_prop47 import steps_lemma_4_5, steps_lemma_4_6_and_prop_4_7, steps_lemmas_4_3_and_4_4
from .step_rows_prop48_thm34 import steps_prop_4_8_and_thm_3_4
from .stepsize_schedule_findings import (STEPSIZE_IMPLICATIONS, _implication_slack, finding_prop47_k_is_sync_index,
                                         finding_stepsize_implication, finding_thm34_stepsize_inadmissible,
                                         settings_findings, step_size_bound)
from .thm34_rates import (compare_rates, complexity_table, finding_remark35, finding_remark36, finding_thm34_rate,
                          leading_eps_powers, remark36_exponents)

__all__ = ["audit_findings", "proof_steps", "complexity_table", "compare_rates", "leading_eps_powers",
           "remark36_exponents", "settings_findings", "step_size_bound", "interval_instance", "LEMMA45_M_INSTANCE",
           "check_lemma45", "check_prop47", "check_eq12", "finding_lemma45_range", "finding_l45e_index",
           "block_matrices", "IDENTITY", "VALID", "NOT_IMPLIED", "NOT_CHECKED"]


# ============================================================================ proof steps
@functools.lru_cache(maxsize=None)
def _proof_steps() -> tuple:
    return tuple(steps_lemmas_4_3_and_4_4() + steps_lemma_4_5() + steps_lemma_4_6_and_prop_4_7()
                 + steps_prop_4_8_and_thm_3_4())


def proof_steps() -> list[dict]:
    """Every labelled proof step with its status (identity / valid inequality / not implied)."""
    return copy.deepcopy(list(_proof_steps()))


# ============================================================================ audit
def _findings_a_to_d(rng) -> list:
    """Items a-d: the proof's step size for Theorem 3.4, Prop. 4.8 (ii), the root step (P4.8-g) and (12), the facts
    of item d (before (11))."""
    return [finding_thm34_stepsize_inadmissible(), finding_prop48_ii_terms(), finding_p48g_root_bound(),
            check_eq12()] + finding_facts_before_eq11(rng)


def _findings_e_to_h(rng) -> list:
    """Items e-h: M vs M_rho, Lemma 4.5's first steps, Prop. 4.8 (i), the limits of item h."""
    out = [finding_l45d_bound_by_M(), finding_lemma45_range(), finding_l45a_needs_common_iterate(),
           finding_l45e_index(), check_prop48_i(rng=rng)]
    syms = {"u": GAMMA_LG_HM1, "w": GAMMA_LG}
    out += [finding_stepsize_implication(fid, claims, _implication_slack(fid), syms[v], up, text)
            for fid, claims, v, up, text in STEPSIZE_IMPLICATIONS]
    return [f for f in out if f is not None]


def _proof_findings(rng) -> list:
    """Further proof findings: the dropped 1/2 of (P4.8-c), Prop. 4.8 (iii)'s factor, K = T_r, Prop. 4.7, Lemma 4.5,
    Lemma 4.1's norms and Lemma 6.1."""
    out = [finding_p48c_half_coefficient(), finding_prop48_iii_gradient_point(), finding_prop47_k_is_sync_index(),
           check_prop47(rng=rng), check_lemma45(rng=rng), finding_lemma41_norms(), finding_lemma61_identity()]
    return [f for f in out if f is not None]


def _remark_findings() -> list:
    """Theorem 3.4's rates and Remarks 3.5-3.6."""
    rates = [finding_thm34_rate(part, adm) for adm in (False, True) for part in ("i", "ii", "iii")]
    return rates + [finding_remark35(), finding_remark36()]


def audit_findings(rng=None) -> list:
    """Symbolic audit rows for PC-FedAvg (items a-h: the helpers above; Theorem 3.4 rates, Remarks 3.5-3.6)."""
    import numpy as np

    rng = np.random.default_rng(0) if rng is None else rng
    return _findings_a_to_d(rng) + _findings_e_to_h(rng) + _proof_findings(rng) + _remark_findings()
