"""FedCLUP's audit, the part of the paper the shared layers load (:mod:`repro.paper`): one computed verdict per claim
and per statement about a figure or table (:func:`verdicts`, rolled up by :func:`repro.verdicts.roll_up` from all of
the evidence: :func:`evidence` about the claims, :func:`.statements.statement_evidence` about :data:`STATEMENTS`),
the findings (:func:`findings`: the symbolic ones of :mod:`bounds.fedclup.findings`, the discussion's directions,
limits and comparisons of :mod:`bounds.fedclup.remarks`, the boundary values of :mod:`bounds.fedclup.boundaries`, the
printed Tables 2 and 4 read against each other and against their statements, Assumption 2 on the authors'
synthetic task, the runs' settings against the derived conditions of :mod:`.conditions`, and what the authors' code
executes against the paper's reading), and FedCLUP's section of ``reports/fedclup.md`` (its detail page)
(:func:`audit_section`, reading the results of :data:`AUDIT_EXPERIMENTS`).

One module per job besides: :mod:`.evidence` (the per-run checks, the derived proof steps and the order-level fits
about the claims), :mod:`.statements` (the paper's statements about its figures and tables, and their evidence under
each reading), :mod:`.section` (the Markdown of the section's parts); what the figures compute too comes from
:mod:`.summaries`. The findings' producers are defined here: a finding names the function that computed it
(``repro.papers.fedclup.audit.<name>``, as ``python -m repro findings`` prints it).
"""
from __future__ import annotations

import functools

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer
from bounds.fedclup import boundaries as BD
from bounds.fedclup import claims as BC
from bounds.fedclup import findings as BF
from bounds.fedclup import remarks as RM
from repro import errata, search_audit, tightness
from repro.papers.fedclup import conditions as CN
from repro.papers.fedclup import errata as ERR
from repro.papers.fedclup.experiments import EXPERIMENTS
from repro.papers.fedclup.problems import synthetic as SYN
from repro.papers.fedclup.runs import mnist as mn
from repro.papers.fedclup.settings import PRINTED as SETTINGS
from repro.tables import findings_table, markdown_table
from repro.verdicts import (
    Bearing, ClaimVerdict, Evidence, from_findings, from_modes, roll_up,
)
from repro.papers.fedclup import crossrefs as CROSSREFS
from repro.papers.fedclup import output as OUTPUT
from repro.papers.fedclup.evidence import (
    _check_evidence, _fit_evidence, _proof_step_evidence, _run_checks, _theory_runs,
)
from repro.papers.fedclup.section import (
    _audit_exact, _audit_figures, _audit_linear_regression, _audit_mnist, _audit_optimization, _audit_pep,
    _audit_readings, _audit_search, _audit_statements,
)
from repro.papers.fedclup.statements import (
    _READING_WORDS, _STATEMENT, READING_EXPERIMENTS, STATEMENTS, TABLE2, TABLE4_LOW, _by_reading, _early_statement,
    _figure2_orders, _figure3_orders, _figure4_orders, figure2_rounds_findings, printed_findings, statement_evidence,
    tables_agree,
)

NOT_REPRODUCED = (
    ("Figures 7, 8", "content and settings not recovered from the paper copy"),
    ("Figure 9 (CelebA, CNN)", "no CelebA data in the data directory ($REPRO_DATA_DIR); no deep-learning "
                               "framework among the project's dependencies)"),
    ("Figure 10 (Sent140, LSTM)", "Sent140 and the LSTM are not available offline (same reasons)"),
    ("Tables 2/4: MNIST CNN2, MNIST CNN5, EMNIST CNN5, CIFAR10 CNN3 rows",
     "CNN training needs a deep-learning framework outside the project's dependency set; CNN5/CNN3 architectures, "
     "EMNIST data and pFedMe's settings are not recovered"),
    ("Tables 3, 5, 6", "not recovered"),
    ("Tables 7-8 values", "the rebuttal's settings and numbers are not recovered; the suite reproduces "
                          "their pattern on its own kappa x lambda grid (figure tables7_8)"),
)

AUDIT_EXPERIMENTS = tuple(e.name for e in EXPERIMENTS)


#: Each theorem/corollary -> the claims its proof uses. Paper: Theorem 1's proof (Appendix A.3) bounds the
#: error through Lemma 3 (20), Lemma 4 (22) and (33) (global Case 1), Corollary 1 (Appendix A.4) tunes lambda in
#: Theorem 1, Theorem 2 (Appendix B.3) combines Lemma 1, Lemmas 5-6 (and (103), which uses Lemma 2's gradient),
#: Corollary 2 (Appendix B.4) instantiates Theorem 2, Theorem 3 (Appendix B.5) rests on Lemma 7 and Lemma 1, and
#: Corollary 3 (Appendix C) adds Corollary 2's optimization error to Theorem 1. Derived versions: the
#: ``derived_from`` of each claim in ``bounds/fedclup/claims.py`` ((8a) on its pathwise steps, whose step 3 uses (33);
#: (8b) on Lemmas 3-4; Lemma 4 on its pathwise inequality; the explicit Theorem 1 and Corollary 1 on (8a)-(8b);
#: Lemma 6 on Lemma 1 and Lemma 2).
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "fedclup.thm1": ("fedclup.lemma3", "fedclup.lemma4", "fedclup.eq33"),
    "fedclup.cor1": ("fedclup.thm1",),
    "fedclup.lemma4": ("fedclup.lemma4.pathwise",),
    "fedclup.thm1.8a.pathwise": ("fedclup.eq33",),
    "fedclup.thm1.8a": ("fedclup.thm1.8a.pathwise",),
    "fedclup.thm1.8b": ("fedclup.lemma3", "fedclup.lemma4"),
    "fedclup.thm1.explicit": ("fedclup.thm1.8a", "fedclup.thm1.8b"),
    "fedclup.cor1.explicit": ("fedclup.thm1.8a", "fedclup.thm1.8b"),
    "fedclup.lemma6": ("fedclup.lemma1", "fedclup.lemma2"),
    "fedclup.thm2": ("fedclup.lemma1", "fedclup.lemma5", "fedclup.lemma6"),
    "fedclup.cor2.communication": ("fedclup.thm2",),
    "fedclup.cor2.computation": ("fedclup.thm2",),
    "fedclup.cor2.explicit": ("fedclup.thm2",),
    "fedclup.thm3": ("fedclup.lemma7", "fedclup.lemma1"),
    "fedclup.cor3": ("fedclup.cor2.communication", "fedclup.thm1"),
}


# ---------------------------------------------------------------------------- findings
@functools.cache
def symbolic_findings() -> tuple:
    """The results-independent findings (``bounds.fedclup.findings.audit_findings`` and Assumption 2 on the
    authors' synthetic task: the Figure 4 data at R = 1, seed 1), then the discussion's directions, limits and
    comparisons (:mod:`bounds.fedclup.remarks`, Figure 2's closing sentence under both readings of its erratum), the
    formulas at their boundary values (:mod:`bounds.fedclup.boundaries`) and Table 2 against Table 4; built once
    per process."""
    found = assumption2(10, 200, 10, 2, 1.0, 1)
    return tuple(BF.audit_findings(np.random.default_rng(0)) + ([found] if found else [])
                 + RM.remark_findings(tuple(BF.closed_form_limits())) + list(figure2_rounds_findings())
                 + BD.boundary_values() + [tables_agree(TABLE2, TABLE4_LOW)] + printed_findings())


def settings_findings(results) -> list:
    """The authors' synthetic settings (Figures 2, 4 and 6) against the derived conditions (one finding per
    condition), Figure 6's client sampling against Theorem 2's full participation, and the MNIST runs' loss and local
    learning rate against Assumption 2 and the derived Lemma 7 (:mod:`.conditions`)."""
    out = BF.settings_findings(_logistic_settings(results.get("fedclup.figure2", ()))
                               + _logistic_settings(results.get("fedclup.figure4", ()))
                               + _logistic_settings(results.get("fedclup.figure6", ())))
    figure6 = results.get("fedclup.figure6", ())
    if figure6:
        out.append(CN.participation(tuple(r.spec.config["sample_rate"] for r in figure6),
                                    *_SETTING_WORDS["fedclup.setting.figure6_client_sampling"]))
    out += list(_design_conditions())
    mnist = results.get("fedclup.mnist", ())
    if mnist:
        out += list(_mnist_conditions(tuple(sorted({r.spec.config["lr"] for r in mnist
                                                    if r.spec.config["method"] == "fedclup"}))))
    return out


_SETTING_WORDS = {p.id: (p.where, p.quote) for p in SETTINGS}


@functools.cache
def _design_conditions() -> tuple:
    """Results-independent conditions (:mod:`.conditions`): the linear-regression designs of ``fedclup.tradeoff`` and
    ``fedclup.rounds`` against Assumption 2 (one draw each, the runs' instance builders), and the MNIST server step
    against Theorem 2's gamma <= 1/L_F."""
    from repro.papers.fedclup.problems import linreg_pfl as LR
    from repro.papers.fedclup.runs import optimization as opt
    from repro.papers.fedclup.runs import statistical as stat
    from repro.runner import typed_config

    tradeoff = stat.tradeoff_specs("quick")[0]
    inst = stat.instance(typed_config(tradeoff.function, tradeoff.config))
    w_star = LR.ground_truth(inst, np.random.default_rng(0))
    designs = {"fedclup.tradeoff (Figure 1)": LR.draw(inst, np.random.default_rng(1), w_star, 1)["A"]}
    for spec in opt.rounds_specs("quick"):
        config = typed_config(spec.function, spec.config)
        designs[f"fedclup.rounds kappa = {config.kappa:g}"] = opt._data(config, 0)[1]["A"]
    return (CN.linreg_assumption2(designs, *_SETTING_WORDS["fedclup.setting.tables78_task"]),
            CN.server_step_bound(*_SETTING_WORDS["fedclup.setting.real_global_step"]))


@functools.cache
def _mnist_conditions(lrs: tuple) -> tuple:
    """The MNIST findings of :mod:`.conditions` on the runs' training clients (each split built once per process)."""
    splits = {classes: mn._data(classes)["train"] for classes in mn.CLASSES}
    out = [CN.mnist_assumption2(splits[max(splits)], max(splits), *_SETTING_WORDS["fedclup.setting.mnist_model"])]
    return tuple(out + [CN.mnist_local_lr(lr, mn.LAMBDAS, splits, *_SETTING_WORDS["fedclup.setting.real_local_lr"])
                        for lr in lrs])


def _logistic_settings(results) -> list[dict]:
    """Per (figure, lambda, m) of the FedCLUP runs, two settings: eta = 1/(L + lambda) with the suite's L (what the
    runs use) and with the authors' L; gamma = 1/lambda (what both execute); the valid L and mu the run logged
    (``bounds.fedclup.findings.L_NAMES``)."""
    out = {}
    for r in results:
        cfg = r.spec.config
        if cfg["method"] != "fedclup" or cfg.get("adapt_constant"):
            continue
        c = r.meta["metadata"]["constants"]
        for name, L_v in (("L_suite", c["L_used"]), ("L_code", c["L_code"])):
            out.setdefault((r.spec.experiment, cfg["lam"], cfg["m"], cfg["local_steps"], name), {
                "figure": r.spec.experiment, "lam": cfg["lam"], "m": cfg["m"], "K": cfg["local_steps"],
                "L_name": name, "L": L_v, "L_code": c["L_code"], "L_valid": c["L_softmax"],
                "mu": float(c.get("mu", 0.0)), "eta": 1 / (L_v + cfg["lam"]), "gamma": 1 / cfg["lam"]})
    return list(out.values())


#: the paper's words on the loss (Section 3, Assumption 2; symbols stripped from the copy)
ASSUMPTION2 = ("Section 3, Assumption 2 (Strong Convexity)", "The empirical loss is [mu]-strongly convex")
#: a change of the loss within this is "unchanged" (floating-point noise of a mean of log-sum-exps)
FLAT_TOL = 1e-9


@producer
def assumption2(m: int, n: int, d: int, C: int, R: float, seed: int, scales=(1.0, 10.0, 100.0)):
    """Assumption 2 on the authors' synthetic task (softmax regression without ridge): the loss is unchanged along
    W -> W + v 1^T (so mu = 0) and decreases along t W_true (no minimiser). A discrepancy only when both are
    computed on the data."""
    data = SYN.generate(m, n, d, C, R, seed)
    clients = SYN.clients(data, scaled=False)
    truth = np.transpose(data["W_true"], (0, 2, 1))                       # (m, d, C): the model layout
    losses = [float(clients.values(t * truth).mean()) for t in scales]
    shift = np.random.default_rng(seed).normal(size=(m, d, 1)) * np.ones((1, 1, C))
    flat = abs(float(clients.values(truth + shift).mean()) - losses[0])
    vanishing = all(a > b for a, b in zip(losses, losses[1:])) and losses[-1] < losses[0] / 2
    if not (flat <= FLAT_TOL and vanishing):
        return None
    where, words = ASSUMPTION2
    return Finding(
        "fedclup.settings.logistic.assumption2", "experiment-settings", ("fedclup.thm1", "fedclup.thm2", "fedclup.lemma5"),
        DISCREPANCY,
        f"{where}: '{words}'. The authors' synthetic task (softmax regression, no ridge) is not: its loss changes by "
        f"{flat:.2g} along W -> W + v 1^T (mu = 0), and mean_i L_i(t W_i_true) decreases from {losses[0]:.3g} to "
        f"{losses[-1]:.3g} as t goes from {scales[0]:g} to {scales[-1]:g} (no minimiser). Theorems 1-2 do not apply to "
        "Figures 2-4 and 6; the settings findings floor mu at bounds.fedclup.findings.MU_FLOOR.",
        f"Figure 4 data at R = {R:g}, seed {seed} (unscaled features): " +
        ", ".join(f"t = {t:g}: {v:.3g}" for t, v in zip(scales, losses)), "numeric")


@producer
def _two_readings(fid: str, pairs: list, code_words: str, paper_words: str, replay: str) -> Finding:
    """A statement's outcome under the authors' code and under the paper's reading, once per value of the other
    readings it was computed under (``pairs``: ``(label, code evidence, paper evidence)``, label "" when there are
    none): a discrepancy where one supports it and the other violates it under the same values, else not checkable
    where either is undecided under some value, else consistent."""
    decided = {Bearing.SUPPORTS, Bearing.VIOLATES}
    outcomes = [CONSISTENT if code.bearing == paper.bearing else DISCREPANCY for _, code, paper in pairs
                if code.bearing in decided and paper.bearing in decided]
    verdict = (DISCREPANCY if DISCREPANCY in outcomes else CONSISTENT if len(outcomes) == len(pairs) else
               NOT_CHECKABLE)
    st = _STATEMENT[pairs[0][1].claim]
    told = " ".join(f"{f'[{label}] ' if label else ''}Under {code_words}: {code.bearing.value} ({code.summary}). "
                    f"Under {paper_words}: {paper.bearing.value} ({paper.summary})." for label, code, paper in pairs)
    return Finding(fid, "code", (st.id,), verdict, f"{st.location}: \"{st.words}\". {told}", replay,
                   "numeric (paired per data seed)")


@producer
def readings_findings(results) -> list[Finding]:
    """One finding per statement about Figures 2, 3 and 4: its outcome under the authors' code and under the paper's
    reading (``fedclup.readings``, ``fedclup.readings_fig23``; the evidence of :func:`.statements._by_reading`, paired
    per value of any other reading, e.g. the adaptive rule's starting lambda); a discrepancy where one supports it and
    the other violates it, i.e. where what the code executes changes what the figure shows. Both readings' metric is
    that of :data:`FIG4_READING_METRIC` (the code plots the unsquared error, Theorem 1 bounds the squared one)."""
    name_of = {option: name for name, option in ERR.READING_OPTION.items()}
    out = []
    for figure, orders in ((2, _figure2_orders), (3, _figure3_orders), (4, _figure4_orders)):
        paired: dict[str, dict[tuple, dict]] = {}
        for e in _by_reading(results, figure, orders):
            reading = dict(e.reading)
            rest = tuple((a, o) for a, o in e.reading if a != ERR.CODE_ID)
            paired.setdefault(e.claim, {}).setdefault(rest, {})[name_of[reading[ERR.CODE_ID]]] = e
        experiment = READING_EXPERIMENTS[figure][0]
        for sid in sorted(paired):
            pairs = [("; ".join(o for _, o in rest), both["code"], both["paper"])
                     for rest, both in paired[sid].items() if len(both) == 2]
            if pairs:
                out.append(_two_readings(f"fedclup.code.readings.{sid.removeprefix('fedclup.')}", pairs,
                                         _READING_WORDS["code"], _READING_WORDS["paper"],
                                         f"python -m repro run {experiment}"))
    return out


#: Figure 6's two server rules: what the authors' code executes and the paper's (12) over the sampled clients
FIG6_SERVER_WORDS = {"average_all": "the authors' server rule (the mean of all m stored client models, sampled or not)",
                     "eq12": "the paper's (12) over the sampled clients with gamma = 1/lambda + 1/L = 1/L_F"}


@producer
def figure6_server_findings(results) -> list[Finding]:
    """Appendix D.2's statement about Figure 6, per number of clients, under both server rules that ``fedclup.figure6``
    runs (:data:`FIG6_SERVER_WORDS`; the data, R and L are the same for both): where the rule the code executes
    changes what the figure shows."""
    runs = results.get("fedclup.figure6", ())
    out = []
    for m in sorted({r.spec.config["m"] for r in runs}):
        ev = {server: _early_statement("fedclup.figure6.early",
                                       [r for r in runs if (r.spec.config["m"], r.spec.config["server"]) == (m, server)],
                                       lambda c: f"m = {c['m']}, server {c['server']}", "local_err")
              for server in FIG6_SERVER_WORDS}
        if all(ev.values()):
            out.append(_two_readings(f"fedclup.code.server.figure6.early.m{m}",
                                     [("", ev["average_all"][0], ev["eq12"][0])],
                                     FIG6_SERVER_WORDS["average_all"], FIG6_SERVER_WORDS["eq12"],
                                     "python -m repro run fedclup.figure6"))
    return out


def findings(results) -> list[Finding]:
    """Every finding the audit shows, in report order: the symbolic ones, then the settings ones and the authors'
    code against the paper's reading (none without results)."""
    return (list(symbolic_findings()) + settings_findings(results) + readings_findings(results)
            + figure6_server_findings(results) + CROSSREFS.findings()
            + OUTPUT.output_findings(results))


# ---------------------------------------------------------------------------- verdicts
def evidence(results) -> list[Evidence]:
    """Every piece of evidence about every claim: the per-run checks, the proof steps, the symbolic and settings
    findings (by kind, :func:`repro.verdicts.from_findings`), the order-level fits, and, for a claim in an
    undecidable mode that nothing symbolic decides, why it cannot be checked."""
    ids = [c.id for c in BC.CLAIMS]
    # settings findings bear on the figures, not on a claim: from_findings leaves them out (NOT_ABOUT_THE_CLAIM)
    out = (_check_evidence(_run_checks(_theory_runs(results))) + _proof_step_evidence()
           + from_findings(findings(results), ids) + _fit_evidence(results)
           + search_audit.evidence(results.get("fedclup.search", ()), "fedclup.search")
           + tightness.evidence(results.get("fedclup.pep", ())))
    decided = {e.claim for e in out if e.bearing in (Bearing.SUPPORTS, Bearing.GAP, Bearing.VIOLATES)}
    out += from_modes(BC.CLAIMS, decided)
    return out


def verdicts(results) -> list[ClaimVerdict]:
    """One verdict per claim of ``bounds.fedclup.claims.CLAIMS`` and per statement of :data:`STATEMENTS`, rolled up from
    :func:`evidence` and :func:`statement_evidence` with :data:`DEPENDS_ON`."""
    return roll_up([c.id for c in BC.CLAIMS] + [st.id for st in STATEMENTS],
                   evidence(results) + statement_evidence(results), DEPENDS_ON, errata.readings(ERR))


# ---------------------------------------------------------------------------- audit section
def audit_section(results, profile: str, verdicts: list[ClaimVerdict]) -> str:
    """The section; ``verdicts`` are :func:`verdicts` of the same ``results`` (the report computes them once)."""
    out = ["## FedCLUP (Understanding the Statistical Accuracy-Communication Trade-off in Personalized FL with "
           "Minimax Guarantees)", "",
           "The paper copy has all mathematics stripped: every explicit constant checked below belongs to the "
           "versions **derived for this project** (`bounds/fedclup/claims.py`, provenance `derived`), "
           "not to the paper. Statements the paper gives only at order level are listed as symbolic rows.", ""]
    out += _audit_linear_regression(results, verdicts) + _audit_optimization(results, verdicts)
    out += _audit_figures(results) + _audit_mnist(results)
    out += _audit_exact(results.get("fedclup.exact", ())) + _audit_readings(results)
    out += _audit_search(results.get("fedclup.search", ()), results.get("fedclup.pep", ()))
    out += _audit_pep(results.get("fedclup.pep", ()))
    out += _audit_statements(verdicts)
    out += ["### Not reproduced", "", markdown_table(["item", "reason"], [list(x) for x in NOT_REPRODUCED]), ""]
    out += ["### Symbolic and settings findings", "", findings_table(findings(results)), ""]
    return "\n".join(out)
