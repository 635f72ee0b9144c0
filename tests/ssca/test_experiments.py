"""SSCA experiments end to end at toy scale (scikit-learn's digits as the labelled MNIST stand-in, so no data
folder is needed): specs, run functions, the checks they feed, figures and the audit section; and the layering of
the package's experiments, figures, audit and summaries modules."""
import ast
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from repro import runner
from repro.papers.ssca import audit as A
from repro.papers.ssca import experiments as X
from repro.papers.ssca import figures as FIG
from repro.papers.ssca import summaries as S
from repro.papers.ssca.runs import convergence as C
from repro.papers.ssca.runs import mnist as M
from repro.overrides import override
from repro.registry import get, part
from repro.runner import RunSpec
from repro.papers.ssca import checks as V


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_specs_are_well_formed(profile):
    for name in A.AUDIT_EXPERIMENTS:
        exp = get(name)
        specs = exp.specs(profile)
        assert specs and len({s.hash for s in specs}) == len(specs), name
        if exp.validate:
            for s in specs:
                exp.validate(s.config)
    fig2 = get("ssca.figure2").specs(profile)
    # the paper's settings (Section VI, Fig. 2 captions and legends): tau, c, lambda, U, the triples by batch size, the SGD legend
    ssca_runs = [s.config for s in fig2 if s.config["method"] == "ssca"]
    assert all(c["tau"] == 0.1 and c["penalty"] == 1e5 and c["iterations"] == 1000 for c in ssca_runs)
    assert {(c["batch"], tuple(c["triple"])) for c in ssca_runs} == {
        (1, (0.4, 0.4, 0.4)), (10, (0.6, 0.9, 0.3)), (100, (0.9, 0.9, 0.3))}
    assert {(c["batch"], c["local_steps"]) for c in (s.config for s in fig2) if c["method"] == "sgd"} == {
        (1, 1), (10, 1), (100, 1), (5, 2), (50, 2)}
    assert len({s.seed for s in fig2}) == M.SEEDS[profile]


def test_bad_configs_are_refused():
    cfg = M.figure2_specs("quick")[0].config
    with pytest.raises(ValueError, match="formulation"):
        M.validate(cfg | {"formulation": "38"})
    with pytest.raises(ValueError, match="method"):
        M.validate(cfg | {"method": "sgd", "formulation": "37"})
    with pytest.raises(ValueError, match="checkpoints"):
        M.validate(cfg | {"checkpoints": [0, 5]})
    with pytest.raises(ValueError, match="problem"):
        C.validate(C.convergence_specs("quick")[0].config | {"problem": "rosenbrock"})


def _digits(spec: RunSpec, **changes) -> RunSpec:
    """The spec (and, for an SGD run, its learning-rate search) at toy scale on the digits stand-in."""
    small = {"dataset": "digits", "hidden": 8, "iterations": 40, "checkpoints": [1, 20, 40]}
    if spec.config["method"] == "sgd":
        small |= {"sgd_grid": [[0.3, 0.3], [3.0, 0.3]], "grid_iterations": 10}
    if spec.config.get("solver_checks"):
        small["solver_checks"] = [20, 40]
    return override(spec, small | changes)


def _tiny_specs() -> dict:
    q = "quick"
    conv = [RunSpec(s.experiment, s.config | {"iterations": 300}, s.seed, s.function)
            for s in get("ssca.convergence").specs(q) if s.seed == 0]
    thm5 = [RunSpec(s.experiment, s.config | {"lambdas": [1e-2], "limit_fractions": [0.4]}, s.seed, s.function)
            for s in get("ssca.theorem5").specs(q)[:1]]
    out = {"ssca.convergence": conv, "ssca.theorem5": thm5}
    for name in ("ssca.figure2", "ssca.figure3", "ssca.figure4", "ssca.printed_32"):
        specs = [s for s in get(name).specs(q) if s.seed == 0]
        out[name] = [_digits(s, **({"iterations": 60, "checkpoints": [1, 30, 60]} if name == "ssca.printed_32" else {}))
                     for s in specs]
    return out


def test_toy_pipeline_figures_and_audit(tmp_path):
    root = tmp_path / "results"
    results = {name: runner.run_all(specs, results_root=root, progress=False) for name, specs in _tiny_specs().items()}
    for r in results["ssca.figure2"] + results["ssca.figure3"]:
        a = r.arrays
        assert a["train_cost"].shape == (3,) and np.all(np.isfinite(a["train_cost"]))
        assert a["train_cost"][-1] < a["train_cost"][0]                   # every method trains on the stand-in
        if r.spec.config["solver_checks"]:                               # closed forms vs cvxpy on the run's own data
            errs = a["closed_form_error"][np.isfinite(a["closed_form_error"])]
            assert errs.size == 2 and errs.max() <= 1e-6
    printed = {r.spec.config["a_bar"]: r for r in results["ssca.printed_32"]}
    # (32) as printed: the surrogate constraint is always slack, nu = 0, the model shrinks towards 0
    assert np.all(printed["printed"].arrays["nu"] == 0)
    assert printed["printed"].arrays["omega_sq"][-1] < 0.1 * printed["printed"].arrays["omega_sq"][0]
    assert printed["surrogate_11"].arrays["train_cost"][-1] < printed["printed"].arrays["train_cost"][-1]
    paths = []
    for name in A.AUDIT_EXPERIMENTS:
        exp = get(name)
        if exp.figure:
            paths += exp.figure(results[name], "quick")
    assert {p.name for p in paths} >= {"figure2.png", "figure3.png", "figure4.png", "convergence.png"}
    text = A.audit_section(results, "quick")
    for heading in ("### Step-size conditions (4) and (6)", "### Lemma 4, the descent inequality (51)",
                    "### Theorems 1-4: trends", "### Closed forms on the experiments' own quantities",
                    "### (32) as printed", "### Theorem 5", "### Not reproduced", "### Symbolic and settings findings"):
        assert heading in text


def _convergence_run(problem: str, steps: str = "theory_a", mode: str = "sample", iterations: int = 400):
    cfg = C.BASE | {"problem": problem, "steps": steps, "mode": mode, "iterations": iterations, "profile": "quick"}
    return C.run_convergence(cfg, 0)


@pytest.mark.parametrize("problem", ["logistic_l2", "nonconvex_logistic"])
@pytest.mark.parametrize("mode", ["sample", "feature"])
def test_lemma4_holds_at_every_iteration_and_can_fail(problem, mode):
    arrays, meta = _convergence_run(problem, mode=mode)
    keep = np.isfinite(arrays["descent"])
    args = (arrays["descent"][keep], arrays["gamma"][:keep.sum()], arrays["delta"][keep], arrays["tracking"][keep])
    out = V.lemma4_outcome(*args, meta["mu"], meta["L_hat"])
    assert out.passed and out.n_checked == 399
    assert 0 < out.details["tightness"] <= 1
    # the same check with the modulus overstated (the surrogate claimed 5x more strongly convex) must fail
    assert not V.lemma4_outcome(*args, 5 * meta["mu"], meta["L_hat"]).passed


def test_kkt_residuals_decrease_when_4_and_6_hold():
    for problem in C.PROBLEMS:
        arrays, meta = _convergence_run(problem, iterations=1500)
        assert meta["conditions_4"] and meta["conditions_6"]
        # a trend, not a limit (the theorems are almost-sure limit statements): the nonconvex constrained problem
        # converges slowest (the audit reports the fitted slopes), so it is only required to decrease
        factor = 0.95 if problem == "nonconvex_loss_limit" else 0.5
        assert arrays["kkt"][-1] < factor * arrays["kkt"][0], problem
        if "dist_reference" in arrays:
            assert arrays["dist_reference"][-1] < 0.5 * arrays["dist_reference"][0], problem


def test_theorem5_on_the_tiny_network():
    from repro.papers.ssca.runs import theorem5 as T5
    arrays, _ = T5.run_theorem5({"lambdas": [1e-2], "limit_fractions": [0.4], "starts": T5.STARTS["quick"]}, 0)
    assert arrays["i_grad_norm"][0] < 1e-8 and arrays["i_hess_min_27"][0] > 0
    assert arrays["i_violation"][0] <= 1e-10
    assert arrays["ii_xi"][0] > 0 and arrays["ii_kkt_residual_37"][0] < 1e-5
    assert arrays["ii_stationarity_27"][0] < 1e-4


PACKAGE = Path(X.__file__).resolve().parent


def _imports(module: str) -> set[str]:
    """Every module the file's import statements name (``from a import b`` names ``a`` and ``a.b``)."""
    out = set()
    for node in ast.walk(ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ("repro.papers.ssca." if node.level else "") + (node.module or "")
            out |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return out


def test_module_layering():
    """experiments -> figures -> summaries, audit -> experiments and summaries: the registry's import of the
    experiments reaches neither the report nor the audit, and the shared computations neither plotting nor report."""
    own = "repro.papers.ssca."
    assert not {m for m in _imports("experiments") if m == "repro.report" or m.startswith(own + "audit")}
    assert not {m for m in _imports("figures") if m == "repro.report" or m.startswith((own + "audit", own + "experiments"))}
    assert not {m for m in _imports("summaries") if m in ("repro.plotting", "repro.report")
                or m.startswith(("matplotlib", own + "figures", own + "audit", own + "experiments"))}
    # and transitively, in a fresh interpreter
    probe = ("import sys, repro.papers.ssca.experiments; "
             "print(sorted(m for m in sys.modules if m == 'repro.report' or m.startswith('repro.papers.ssca.audit')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parents[2])
    assert out.stdout.strip() == "[]"


def test_registry_contract():
    """What the shared layers read: the experiments (their figures drawn by :mod:`.figures`) and the audit's
    ``AUDIT_EXPERIMENTS`` and ``audit_section``."""
    assert part("ssca", "experiments") is X and part("ssca", "audit") is A
    assert A.AUDIT_EXPERIMENTS == tuple(e.name for e in X.EXPERIMENTS)
    assert all(e.figure.__module__ == FIG.__name__ for e in X.EXPERIMENTS if e.figure)
    assert callable(A.audit_section) and X.PAPER == S.PAPER == "ssca"


def test_summaries_on_fake_runs():
    """The shared computations: selection by config, values at T and at a checkpoint (nan off the checkpoints),
    means and ranges over runs."""
    from types import SimpleNamespace as NS

    def run(batch, values):
        return NS(spec=NS(config={"batch": batch}), arrays={"checkpoints": np.array([1, 10, 20]),
                                                             "cost": np.array(values, float)})
    runs = [run(1, [3, 2, 1]), run(1, [5, 4, 3]), run(10, [1, 1, 1])]
    from repro.tables import select_results
    ones = select_results(runs, batch=1)
    assert ones == runs[:2] and select_results(runs, batch=100) == []
    assert S.final(runs[1], "cost") == 3.0 and S.at(runs[0], "cost", 10) == 2.0 and np.isnan(S.at(runs[0], "cost", 5))
    assert S.mean_at(ones, "cost", 20) == 2.0 and np.isnan(S.mean_at([], "cost", 20))
    t, mean, lo, hi = S.mean_curve(ones, "cost")
    assert t.tolist() == [1, 10, 20] and mean.tolist() == [4, 3, 2] and lo.tolist() == [3, 2, 1] and hi.tolist() == [5, 4, 3]
