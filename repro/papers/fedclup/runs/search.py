"""FedCLUP adversarial search (``fedclup.search``): for every derived claim with an explicit bound, the admissible
linear-regression instance that comes closest to breaking it, found by :func:`repro.search.maximize_ratio`.

A *target* is one relation of one claim (``relation`` indexes the claim's outcomes in its check: Theorem 2's
contraction is relation 0, its local-model bound relation 1). The objective of a target is the observed/bound
that the existing check (:func:`repro.papers.fedclup.checks.check`, through the existing run functions
:func:`~repro.papers.fedclup.runs.statistical.run_statistical`,
:func:`~repro.papers.fedclup.runs.optimization.run_theorem2` and
:func:`~repro.papers.fedclup.runs.optimization.run_lemma7`) reports on one instance with exact constants; an
instance whose hypotheses fail (or that the test bed refuses) is ``nan``. Nothing about the instances or the
checks is re-implemented here: a point of a family's box is decoded into the config of an existing run.

Families (:data:`FAMILIES`): per test bed a ``general`` box (log lambda, kappa, R, noise, m, n, d, step-size scale,
K, rounds) and a degenerate one (one dimension, two clients -- the test bed's minimum, ``m >= 2`` -- and one sample;
few rounds for Theorem 2, where one dimension makes L = mu and the inner problem is solved in one step, so a second
degenerate family has d = 2, m = 2, n = 2 and few rounds; one dimension for Lemma 7). Parameters at the edge of
their conditions: eta = 1/(L + lambda) (the existing runs' choice, the edge of Lemmas 5-7), gamma = s/L_F with s up
to 1 (edge of gamma <= 1/L_F), K for Theorem 2 counted from the smallest K satisfying (14-D) (``K_edge``), lambda
for (8b) counted from the edge of (mu + lambda)^2 >= 12 kappa^2 L^2 (``lam_edge``), T for Corollary 2 the derived T.
Instances: mu = 1, Sigma = diag(linspace(1, kappa, d)) (whitened design; as in :mod:`.optimization`).

Expectation claims are Monte-Carlo means, so the searched ratio is noisy and biased upwards by the search (it
selects the luckiest draws). The best instance is therefore *confirmed*: :data:`CONFIRM_SEEDS` runs with fresh draws
and :data:`CONFIRM_REPS_FACTOR` times as many (:func:`confirm_runs`); the confirmed ratio is their mean,
``certified`` its lower end (mean - 3 SE). A bound is reported violated when a deterministic claim's check fails on
the searched draw, or an expectation claim's certified ratio exceeds 1; a halved constant is detected when 2 x
certified > 1 (:func:`certified`; for deterministic claims certified = the searched ratio).

Not searched, and why: (12), (13) and Lemma 2 are conformance identities (residual <= 0: no constant to
perturb); Lemma 1 has no run check (it is exact on quadratics and proven symbolically,
``bounds.fedclup.findings.lemma1_checks``); the order-level claims have no constants.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds.fedclup import claims as B

from repro import admissible as adm
from repro.errors import ConfigError, require
from repro.papers.fedclup.checks import HYPOTHESIS_RTOL
from repro.papers.fedclup.runs import optimization as O
from repro.papers.fedclup.runs import statistical as S
from repro.runner import RunSpec
from repro.io import finite_or_none
from repro.search import Check, Family, SearchConfig as SharedSearchConfig, SearchRecord, maximize_ratio

#: claim -> test bed (the existing run function whose check reports it)
BEDS = {**{cid: "statistical" for cid in S.STATISTICAL_CLAIMS},
        "fedclup.lemma5": "theorem2", "fedclup.lemma6": "theorem2", "fedclup.thm2": "theorem2",
        "fedclup.cor2.explicit": "cor2", "fedclup.lemma7": "lemma7"}
#: every (claim, relation) searched
TARGETS = tuple((cid, j) for cid in BEDS for j in range(len(B.claim(cid).relations)))
NOT_SEARCHED = {"fedclup.eq12": "identity (residual <= 0): no constant", "fedclup.eq13": "identity (residual <= 0): "
                "no constant", "fedclup.lemma2": "identity (residual <= 0): no constant",
                "fedclup.lemma1": "no run check; exact on quadratics, proven symbolically (lemma1_checks)"}

#: coordinate -> (low, high, kind); kinds: "lin" x, "log" 10**x, "int" round(x), "logint" round(10**x)
COORDS = {
    "lam": (-3.0, 3.0, "log"), "lam_edge": (0.0, 2.0, "lin"), "kappa": (0.0, 1.5, "log"),
    "kappa_small": (0.0, 1.0, "log"), "R": (0.0, 2.0, "lin"), "R_pos": (-3.0, 0.3, "log"),
    "noise": (0.05, 2.0, "lin"), "m": (math.log10(2), 2.0, "logint"), "n": (0.0, 1.7, "logint"),
    "d": (1.0, 4.0, "int"), "gamma_scale": (0.05, 1.0, "lin"), "K": (0.0, 1.6, "logint"),
    "K_edge": (0.0, 5.0, "int"), "rounds": (2.0, 30.0, "int"), "rounds_few": (2.0, 5.0, "int"),
    "eps_rel": (-6.0, -1.0, "log"), "batch_frac": (0.0, 1.0, "lin"), "K_inner": (0.0, 1.7, "logint"),
}
_D1 = {"d": 1, "m": 2, "n": 1}
#: test bed -> family -> (coordinates, fixed parameters)
FAMILIES = {
    "statistical": {"general": (("lam", "kappa", "R", "noise", "m", "n", "d"), {}),
                    "d1_m2_n1": (("lam", "R", "noise"), _D1)},
    "theorem2": {"general": (("lam", "kappa", "gamma_scale", "K", "rounds", "m", "n", "d", "R"), {}),
                 "d1_m2_n1_few_rounds": (("lam", "gamma_scale", "K", "rounds_few"), _D1),
                 "d2_m2_n2_few_rounds": (("lam", "kappa", "gamma_scale", "K", "rounds_few"), {"d": 2, "m": 2, "n": 2})},
    "cor2": {"general": (("lam", "kappa_small", "eps_rel", "m", "n", "d", "R"), {}),
             "d1_m2_n1": (("lam", "eps_rel"), _D1)},
    "lemma7": {"general": (("lam", "kappa", "K_inner", "n", "d", "batch_frac"), {}),
               "d1": (("lam", "K_inner", "n", "batch_frac"), {"d": 1})},
}
#: per claim, coordinates replaced (None: dropped): lambda at (8b)'s edge, Corollary 1's own lambda and R > 0,
#: Theorem 2's K from the edge of (14-D)
SUBSTITUTE = {"fedclup.thm1.8b": {"lam": "lam_edge"}, "fedclup.cor1.explicit": {"lam": None, "R": "R_pos"},
              "fedclup.thm2": {"K": "K_edge"}}
PROFILE = {"quick": {"maxiter": 4, "popsize": 3, "polish_evals": 20, "reps": 60},
           "paper": {"maxiter": 25, "popsize": 8, "polish_evals": 120, "reps": 400}}
CONFIRM_SEEDS, CONFIRM_REPS_FACTOR, CONFIRM_Z = 5, 4, 3.0


def bed(claim: str) -> str:
    require(claim in BEDS, "claim", claim, "a searched claim: " + ", ".join(BEDS))
    return BEDS[claim]


def _coordinates(claim: str, family: str) -> tuple[tuple[str, ...], dict]:
    fams = FAMILIES[bed(claim)]
    require(family in fams, "family", family, f"one of {', '.join(fams)} (claim {claim})")
    coords, fixed = fams[family]
    sub = SUBSTITUTE.get(claim, {})
    return tuple(sub.get(c, c) for c in coords if sub.get(c, c) is not None), dict(fixed)


def _value(kind: str, x: float):
    return {"lin": float(x), "log": float(10.0 ** x), "int": int(round(x)), "logint": int(round(10.0 ** x))}[kind]


# ---------------------------------------------------------------------------- families: a point -> an instance
_RENAME = {"lam_edge": "lam", "kappa_small": "kappa", "R_pos": "R", "K_edge": "K", "rounds_few": "rounds",
           "K_inner": "K"}


def decode(claim: str, family: str, x) -> dict:
    """The instance (plain JSON parameters) of the point ``x`` of ``family``'s box for ``claim``."""
    coords, fixed = _coordinates(claim, family)
    raw = {_RENAME.get(c, c): _value(COORDS[c][2], xi) for c, xi in zip(coords, np.asarray(x, float))}
    p = {"d": 1, "kappa": 1.0, "R": O.THEOREM2_BASE["R"]} | fixed | raw
    p["kappa"] = 1.0 if p["d"] == 1 else p["kappa"]          # d = 1: Sigma = (1), kappa is 1
    p["n"] = max(int(p.get("n", p["d"])), p["d"])              # the whitened design needs n >= d
    p["m"] = int(p.get("m", 2)) + (p["d"] == 1 and int(p.get("m", 2)) % 2 == 1)   # d = 1, R > 0: m even
    if "lam_edge" in coords:                                 # (8b): (mu + lam)^2 >= 12 kappa^2 L^2, mu = 1, L = kappa
        p["lam"] = (math.sqrt(12.0) * p["kappa"] ** 2 - 1.0) * 10.0 ** p["lam"]
    if "batch_frac" in coords:
        p["batch"] = 1 + int(round(p.pop("batch_frac") * (p["n"] - 1)))
    if "K_edge" in coords:
        p["K"] = k_edge(p["kappa"], p["lam"], p["gamma_scale"]) + p["K"]
    if bed(claim) == "cor2":
        p |= {"gamma_scale": 1.0, "K": "cor2", "rounds": cor2_rounds(p["kappa"], p["lam"], p["eps_rel"])}
    return p


def k_edge(kappa: float, lam: float, gamma_scale: float) -> int:
    """The smallest K for which Theorem 2's hypotheses ((14-D) among them) hold at gamma = s/L_F, eta = 1/(L + lam)."""
    c = O.derived_choices(1.0, kappa, lam)
    thm2 = B.claim("fedclup.thm2")
    for K in range(1, c["K"] + 1):
        if thm2.hypotheses_hold(rtol=HYPOTHESIS_RTOL, mu=1.0, L=kappa, lam=lam, gamma=c["gamma"] * gamma_scale,
                                eta=c["eta"], K=K):
            return K
    return c["K"]


def cor2_rounds(kappa: float, lam: float, eps_rel: float) -> int:
    """Corollary 2's T at Phi_0/eps = 1/eps_rel, plus one round (the run checks e_T at that T)."""
    p = B.claim("fedclup.cor2.explicit").prescribed(mu=1.0, L=kappa, lam=lam, Phi_0=1.0, epsilon=eps_rel)
    return int(p["T"]) + 1


def family(claim: str, name: str) -> Family:
    coords, _ = _coordinates(claim, name)
    return Family(f"{name}", coords, tuple(COORDS[c][:2] for c in coords), lambda x: decode(claim, name, x))


# ---------------------------------------------------------------------------- objective: the existing runs' checks
def _spectrum(p: dict) -> list:
    return [float(v) for v in np.linspace(1.0, p["kappa"], p["d"])]


def run_config(claim: str, p: dict, reps: int, profile: str) -> tuple:
    """(run function, its config) of the existing run that checks ``claim`` on instance ``p`` (the Config validates
    it: an inadmissible instance raises ConfigError)."""
    common = {"m": p["m"], "n": p["n"], "R": p["R"], "profile": profile}
    kind = bed(claim)
    if kind == "statistical":
        cfg = S.StatisticalConfig(spectrum=_spectrum(p), noise=p["noise"], reps=reps, lams=[p.get("lam", 1.0)],
                                  **common)
        return S.run_statistical, cfg
    if kind in ("theorem2", "cor2"):
        cfg = O.Theorem2Config(kappa=p["kappa"], d=p["d"], lam=p["lam"], gamma_scale=p["gamma_scale"], K=p["K"],
                               rounds=p["rounds"], eps_rel=p.get("eps_rel", O.THEOREM2_BASE["eps_rel"]), **common)
        return O.run_theorem2, cfg
    cfg = O.Lemma7Config(kappa=p["kappa"], d=p["d"], lam=p["lam"], batch=p["batch"], local_steps=p["K"],
                         replicates=reps, **common)
    return O.run_lemma7, cfg


def outcome(claim: str, relation: int, p: dict, *, reps: int, seed: int, profile: str = "quick") -> dict | None:
    """The check's outcome of relation ``relation`` of ``claim`` on instance ``p`` (one run of the existing run
    function with ``seed``): {observed, bound, ratio, passed, inconclusive, hypotheses_met}; None when the test bed
    refuses the instance or the claim is not judged on it."""
    try:
        fn, cfg = run_config(claim, p, reps, profile)
        with np.errstate(all="ignore"):     # degenerate instances (exact convergence) make the runs' summaries
            arrays, _ = fn(cfg, seed)       # (not their checks) take log 0; the checks handle nan and inf
    except ConfigError:
        return None
    rows = np.flatnonzero(arrays["claim_id"] == claim)
    if rows.size <= relation:                      # e.g. Corollary 2 not checked (T beyond the run)
        return None
    i = int(rows[relation])
    return {k: (bool(arrays[k][i]) if arrays[k].dtype == bool else float(arrays[k][i]))
            for k in ("observed", "bound", "ratio", "passed", "inconclusive", "hypotheses_met")}


#: an outcome whose observed value and bound are both below this is at float resolution (the instances have O(1)
#: scale: squared rounding errors are ~1e-32): its ratio (e.g. 1e-32 / 1e-61) says nothing about the bound
ROUNDING = 1e-14


def at_rounding(o: dict) -> bool:
    """Float rounding decides this outcome: a deterministic excess inside the check's tolerance, or observed and
    bound both below :data:`ROUNDING` (the expectation check has no float tolerance)."""
    inside_tolerance = bool(o["inconclusive"] and o["passed"] and o["ratio"] > 1.0)
    return inside_tolerance or max(abs(o["observed"]), abs(o["bound"])) < ROUNDING


class Objective:
    """params -> the check's observed/bound on that instance; nan where the hypotheses fail, the instance is refused
    or float rounding decides the outcome (:func:`at_rounding`; the worst such raw ratio is kept in ``rounding``)."""

    def __init__(self, claim: str, relation: int, *, reps: int, seed: int, profile: str = "quick"):
        self.claim, self.relation, self.reps, self.seed, self.profile = claim, relation, reps, seed, profile
        self.rounding = {"count": 0, "worst_raw_ratio": None, "params": None, "check_failed": False}

    def __call__(self, p: dict) -> float:
        o = outcome(self.claim, self.relation, p, reps=self.reps, seed=self.seed, profile=self.profile)
        if o is None or not o["hypotheses_met"]:
            return math.nan
        if at_rounding(o):
            r = self.rounding
            r["count"] += 1
            if r["worst_raw_ratio"] is None or o["ratio"] > r["worst_raw_ratio"]:
                r.update(worst_raw_ratio=o["ratio"], params=dict(p), check_failed=not o["passed"])
            return math.nan
        return o["ratio"]


def confirm_runs(claim: str, reps: int, seed: int) -> list[tuple[int, int]]:
    """The (seed, draws) of the :data:`CONFIRM_SEEDS` confirming runs: fresh seeds (new data draws and ground truths)
    for the statistical claims, whose instance is the parameters; for Lemma 7, whose instance also holds the data,
    the anchor and the start drawn from the seed (before the batches), the same seed with as many replicate counts
    (the same instance, fresh mini-batch streams)."""
    big = max(2, reps * CONFIRM_REPS_FACTOR)
    if bed(claim) == "lemma7":
        return [(seed, big + k) for k in range(CONFIRM_SEEDS)]
    return [(seed + 1000 * (k + 1), big) for k in range(CONFIRM_SEEDS)]


def confirm(claim: str, relation: int, p: dict, *, reps: int, seed: int, profile: str = "quick") -> dict:
    """The instance re-run (:func:`confirm_runs`): mean ratio, its standard error, its lower end mean - 3 SE, and how
    many of those runs the check failed (runs where float rounding decides are left out)."""
    outs = [outcome(claim, relation, p, reps=r, seed=s, profile=profile) for s, r in confirm_runs(claim, reps, seed)]
    outs = [o for o in outs if o is not None and o["hypotheses_met"] and not at_rounding(o)]
    ratios = np.array([o["ratio"] for o in outs], float)
    if ratios.size < 2:
        return {"ratio": math.nan, "se": math.nan, "lower": math.nan, "failed": 0}
    se = float(ratios.std(ddof=1) / math.sqrt(ratios.size))
    return {"ratio": float(ratios.mean()), "se": se, "lower": float(ratios.mean() - CONFIRM_Z * se),
            "failed": int(sum(not o["passed"] for o in outs))}


def certified(claim: str, best: float, confirmed: dict) -> float:
    """The ratio a violation is judged on: the searched ratio for a deterministic claim (a pathwise fact on that
    draw), the confirmed lower end for an expectation claim (the search selects lucky Monte-Carlo draws)."""
    return best if B.claim(claim).mode.value == "deterministic" else confirmed["lower"]


def search(claim: str, relation: int, family_name: str, *, seed: int, maxiter: int, popsize: int,
           polish_evals: int, reps: int, profile: str = "quick", scale: float = 1.0):
    """:func:`repro.search.maximize_ratio` of the claim's objective over the family (``scale`` = 2: the bound
    halved)."""
    f = Objective(claim, relation, reps=reps, seed=seed, profile=profile)
    res = maximize_ratio(lambda p: scale * f(p), family(claim, family_name), seed=seed, maxiter=maxiter,
                         popsize=popsize, polish_evals=polish_evals)
    return res, f.rounding


# ---------------------------------------------------------------------------- the run
@dataclass(frozen=True, kw_only=True)
class SearchConfig(SharedSearchConfig):
    """One run of ``fedclup.search``: relation ``relation`` of ``claim`` searched over ``family`` with differential
    evolution (``maxiter`` generations of ``popsize`` x dimension points, then at most ``polish_evals`` Nelder-Mead
    evaluations); ``reps`` Monte-Carlo draws per instance (replicates for Lemma 7; 1 for the deterministic runs)."""

    relation: int = 0
    reps: int

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.one_of("claim", self.claim, tuple(BEDS))
        n_rel = len(B.claim(self.claim).relations)
        require(self.relation in range(n_rel), "relation", self.relation,
                f"an index of {self.claim}'s relations, 0..{n_rel - 1}")
        _coordinates(self.claim, self.family)
        adm.integer("reps", self.reps, 1 if bed(self.claim) in ("theorem2", "cor2") else 2, "Monte-Carlo draws")


def run_search(config: SearchConfig, seed: int):
    """Search one (claim, relation, family); the best instance re-checked on its draw and confirmed on fresh ones.
    Deterministic claims are decided on the searched draw, expectation claims on the confirmed lower end
    (:func:`certified`); the objective is observed/bound, so twice the certified ratio is the halved claim's."""
    claim, relation = config.claim, config.relation
    draws = {"reps": config.reps, "seed": seed, "profile": config.profile}
    res, rounding = search(claim, relation, config.family, maxiter=config.maxiter, popsize=config.popsize,
                           polish_evals=config.polish_evals, **draws)
    best = outcome(claim, relation, res.params, **draws) if res.params else None
    conf = (confirm(claim, relation, res.params, **draws) if res.params
            else {"ratio": math.nan, "se": math.nan, "lower": math.nan, "failed": 0})
    cert = certified(claim, res.ratio, conf)
    checks = ()
    if best is not None:
        deterministic = B.claim(claim).mode.value == "deterministic"
        violated = not best["passed"] if deterministic else cert > 1.0
        sides = ("on the searched draw" if deterministic else
                 f"on the searched draw (decided on fresh draws: certified ratio {cert:.4g})")
        checks = (Check(best["observed"], best["bound"], best["ratio"], "failed" if violated else "held", sides),)
    detail = {"relation": relation, "confirm": {k: finite_or_none(v) for k, v in conf.items()},
              "certified": finite_or_none(cert), "rounding": rounding,
              "coordinates": list(family(claim, config.family).names)}
    return SearchRecord(claim, config.family, res, checks, 2.0 * cert if best is not None else None, res.evaluations,
                        detail=detail).to_run()


def search_configs(profile: str) -> list[SearchConfig]:
    out = []
    for cid, j in TARGETS:
        knobs = dict(PROFILE[profile])
        if bed(cid) in ("theorem2", "cor2"):
            knobs["reps"] = 1
        out += [SearchConfig(claim=cid, relation=j, family=name, profile=profile, **knobs)
                for name in FAMILIES[bed(cid)]]
    return out


def search_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("fedclup.search", cfg, i, run_search)
            for i, cfg in enumerate(search_configs(profile))]
