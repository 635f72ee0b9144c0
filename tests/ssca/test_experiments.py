"""SSCA experiments end to end at toy scale (scikit-learn's digits as the labelled MNIST stand-in, so no data
folder is needed): specs, run functions, the checks they feed, figures and the audit section; and the layering of
the package's experiments, figures, audit and summaries modules."""
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from bounds.ssca import claims as B
from repro import runner
from repro.errors import ConfigError
from repro.papers.ssca import audit as A
from repro.papers.ssca import evidence as EV
from repro.papers.ssca import statements as ST
from repro.papers.ssca import experiments as X
from repro.papers.ssca import figures as FIG
from repro.papers.ssca import summaries as S
from repro.papers.ssca.runs import convergence as C
from repro.papers.ssca.runs import mnist as M
from repro.overrides import override
from repro.registry import get, paper
from repro.runner import RunSpec
from repro.papers.ssca import checks as V
from repro.papers.ssca.runs import theorem5 as T5
from repro.verify import check_claims


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_specs_are_well_formed(profile):
    for name in A.AUDIT_EXPERIMENTS:
        exp = get(name)
        specs = exp.specs(profile)
        assert specs and len({s.hash for s in specs}) == len(specs), name
        assert exp.config is not None and exp.validate is None, name
        for s in specs:
            exp.check_config(s.config)                                # every config builds its dataclass
            (shape,) = [c for c in exp.config_classes() if set(c.keys()) == set(s.config)]   # exactly one shape
            assert shape.from_dict(s.config).as_dict() == s.config and set(s.config) <= exp.config_keys(), name
            for need, dep in s.needs.items():          # the learning-rate searches and initial points, too
                shape = {"grid": M.SGDGridConfig, "initial": M.InitialPointConfig}[need]
                assert shape.from_dict(dep.config).as_dict() == dep.config, name
                if need == "initial":                  # the run's own data, precision, clients and network
                    assert (dep.config, dep.seed) == ({k: s.config[k] for k in shape.keys()}, s.seed), name
    fig2 = get("ssca.figure2").specs(profile)
    # the paper's settings (Section VI, Fig. 2 captions and legends): tau, c, lambda, U, the triples by batch size, the SGD legend
    ssca_runs = [s.config for s in fig2 if s.config["method"] == "ssca"]
    assert all(c["tau"] == 0.1 and c["penalty"] == 1e5 and c["iterations"] == 1000 for c in ssca_runs)
    assert {(c["batch"], tuple(c["triple"])) for c in ssca_runs} == {
        (1, (0.4, 0.4, 0.4)), (10, (0.6, 0.9, 0.3)), (100, (0.9, 0.9, 0.3))}
    assert {(c["batch"], c["local_steps"]) for c in (s.config for s in fig2) if c["method"] == "sgd"} == {
        (1, 1), (10, 1), (100, 1), (5, 2), (50, 2)}
    assert len({s.seed for s in fig2}) == M.SEEDS[profile]


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_figure4_reuses_the_runs_of_figures_2_and_3_at_their_lambda_and_u(profile):
    """Figure 4's points at Figure 2's lambda and U are Figure 2's (sample) and Figure 3's (feature) runs of the
    same batch size: the same specs, so the runner computes them once; every other point is Figure 4's own."""
    fig4 = get("ssca.figure4").specs(profile)
    owned = {name: {s._canonical for s in get(name).specs(profile)} for name in ("ssca.figure2", "ssca.figure3")}
    shared = [s for s in fig4 if s.experiment != "ssca.figure4"]
    assert all(s._canonical in owned[s.experiment] for s in shared)
    assert {(s.experiment, s.config["mode"], s.config["formulation"], s.config["batch"], s.config.get("lam"),
             s.config.get("U")) for s in shared} == {
        ("ssca.figure2", "sample", "27", 10, M.LAMBDA, None), ("ssca.figure2", "sample", "37", 10, None, M.U_LIMIT),
        ("ssca.figure3", "feature", "27", 100, M.LAMBDA, None), ("ssca.figure3", "feature", "37", 100, None, M.U_LIMIT)}
    assert len(shared) == 4 * M.SEEDS[profile]
    own = [s for s in fig4 if s.experiment == "ssca.figure4"]
    assert all(s.config["checkpoints"] == [M.ITERATIONS] for s in own)
    figure2_points = {(m, M.LAMBDA, None) for m in M.MODES} | {(m, None, M.U_LIMIT) for m in M.MODES}
    assert not {(s.config["mode"], s.config.get("lam"), s.config.get("U")) for s in own} & figure2_points


def test_plan_counts_a_run_that_two_experiments_list_once(repro_main, tmp_path):
    out = repro_main("plan", "ssca.figure2", "ssca.figure4", cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(tmp_path / "results")})
    assert out.returncode == 0, out.stderr
    unique = {s._canonical for name in ("ssca.figure2", "ssca.figure4")
              for s in runner._with_needs(get(name).specs("quick"))}
    rows = {line.split()[0]: int(line.split()[1]) for line in out.stdout.splitlines() if line.startswith("ssca.")}
    assert rows["ssca.figure4"] == len(get("ssca.figure4").specs("quick")) - 2 * M.SEEDS["quick"]
    assert f"profile quick: {len(unique)} runs" in out.stdout


def test_bad_configs_are_refused():
    cfg, fig2 = M.figure2_specs("quick")[0].config, get("ssca.figure2")
    with pytest.raises(ValueError, match="formulation"):
        fig2.check_config(cfg | {"formulation": "38"})
    with pytest.raises(ValueError, match="method"):
        fig2.check_config(cfg | {"method": "sgd", "formulation": "37"})
    with pytest.raises(ValueError, match="checkpoints"):
        fig2.check_config(cfg | {"checkpoints": [0, 5]})
    with pytest.raises(ValueError, match="problem"):
        C.ConvergenceConfig.from_dict(C.convergence_specs("quick")[0].config | {"problem": "rosenbrock"})


def _first(name: str, **where) -> dict:
    return next(s.config for s in get(name).specs("quick") if all(s.config.get(k) == v for k, v in where.items()))


BAD_VALUES = [   # (experiment, a config of one of its runs, key, inadmissible value)
    ("ssca.convergence", lambda: _first("ssca.convergence"), "tau", -1.0),
    ("ssca.convergence", lambda: _first("ssca.convergence"), "steps", "fast"),
    ("ssca.convergence", lambda: _first("ssca.convergence"), "n", 601),
    ("ssca.convergence", lambda: _first("ssca.convergence"), "iterations", 1),
    ("ssca.convergence", lambda: _first("ssca.convergence"), "flip", 0.5),
    ("ssca.theorem5", lambda: _first("ssca.theorem5"), "starts", 0),
    ("ssca.theorem5", lambda: _first("ssca.theorem5"), "limit_fractions", [0.2, 1.5]),
    ("ssca.theorem5", lambda: _first("ssca.theorem5"), "radius", 0.0),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca", formulation="27"), "lam", -1e-5),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca", formulation="37"), "U", 0),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca"), "triple", [0.6, 1.2, 0.3]),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca"), "clients", 0),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca"), "dataset", "cifar10"),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="ssca"), "solver_checks", [7]),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="sgd"), "local_steps", 0),
    ("ssca.figure3", lambda: _first("ssca.figure3", method="sgd"), "local_steps", 2),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="sgd"), "sgd_grid", [[0.0, 0.5]]),
    ("ssca.figure2", lambda: _first("ssca.figure2", method="sgd"), "formulation", "37"),
    ("ssca.figure4", lambda: _first("ssca.figure4"), "method", "sgd"),
    ("ssca.printed_32", lambda: _first("ssca.printed_32"), "a_bar", "negated"),
    ("ssca.printed_32", lambda: _first("ssca.printed_32"), "dtype", "float16"),
    ("ssca.printed_32", lambda: _first("ssca.printed_32"), "checkpoints", [1, 200, 100]),
]


@pytest.mark.parametrize("name, config, key, value", BAD_VALUES)
def test_a_bad_config_value_is_a_one_line_error_naming_key_and_value(name, config, key, value):
    exp, good = get(name), config()
    exp.check_config(good)
    with pytest.raises(ConfigError) as e:
        exp.check_config(good | {key: value})
    message = str(e.value)
    assert message.startswith(f"{key}={value!r} is not admissible: ") and "\n" not in message, message


def test_config_dataclasses_are_the_source_of_keys_and_defaults():
    """The spec builders go through the dataclasses: defaults, the shape per run, unknown and missing keys."""
    conv = C.ConvergenceConfig(problem="logistic_l2", steps="theory_a", mode="sample", iterations=10, profile="quick")
    assert conv.as_dict() | {"iterations": 2000} == _first("ssca.convergence", problem="logistic_l2",
                                                            steps="theory_a", mode="sample")
    with pytest.raises(ConfigError, match="key 'problem' is required"):
        C.ConvergenceConfig.from_dict({"steps": "theory_a"})


def _shape(name: str, config: dict) -> type:
    """The shape the experiment's ``check_config`` builds ``config`` into (the first whose keys cover it)."""
    get(name).check_config(config)
    return next(c for c in get(name).config_classes() if set(config) <= set(c.keys()))


def test_each_mnist_run_builds_its_own_shape():
    """The MNIST experiments list their shapes of run; a config builds the one its keys name (also as the union
    ``run_mnist_ssca`` declares), a config mixing shapes (or with only the keys every shape has) is refused, and
    ``--set`` may change any key of a shape."""
    assert _shape("ssca.figure2", _first("ssca.figure2", method="sgd")) is M.SGDConfig
    assert _shape("ssca.figure2", _first("ssca.figure2", formulation="27", method="ssca")) is M.SSCA27Config
    assert _shape("ssca.figure3", _first("ssca.figure3", formulation="37")) is M.SSCA37Config
    assert _shape("ssca.figure4", _first("ssca.figure4", formulation="27")) is M.SSCA27Config
    assert _shape("ssca.figure4", _first("ssca.figure4", formulation="37")) is M.SSCA37Config
    fig2, fig4 = get("ssca.figure2"), get("ssca.figure4")
    with pytest.raises(ConfigError, match="config key 'grid_iterations' .* not admissible for SSCA27Config"):
        fig4.check_config(_first("ssca.figure2", method="sgd"))                  # Figure 4 has no SGD run
    ssca27 = _first("ssca.figure2", method="ssca", formulation="27")
    with pytest.raises(ConfigError, match="config key 'U' .* not admissible for SSCA27Config"):
        fig2.check_config(ssca27 | {"U": 0.13})                                # (27)'s keys and (37)'s U
    with pytest.raises(ConfigError, match="config key 'triple' .* not admissible for SGDConfig"):
        fig2.check_config(_first("ssca.figure2", method="sgd") | {"triple": [0.4, 0.4, 0.4]})
    common = {k: v for k, v in ssca27.items() if k in M.MnistConfig.keys()}
    with pytest.raises(ConfigError, match="key 'triple' is required"):         # only the keys shared by every run
        fig2.check_config(common)
    needed = {M.SGDGridConfig, M.InitialPointConfig}                           # runs the curves need
    for name in ("ssca.figure2", "ssca.figure3", "ssca.figure4", "ssca.printed_32"):
        exp = get(name)
        for profile in ("quick", "paper"):
            configs = [s.config for s in exp.specs(profile)]
            assert exp.config_keys() == frozenset.union(*(frozenset(c) for c in configs)), (name, profile)
            assert {_shape(name, c) for c in configs} == set(exp.config_classes()) - needed, (name, profile)
            assert all(type(runner.typed_config(M.run_mnist_ssca, c)) is _shape(name, c) for c in configs), name
    shapes = (M.SSCA27Config, M.SSCA37Config, M.SGDConfig)
    assert fig2.config_keys() == get("ssca.figure3").config_keys() == frozenset().union(*(c.keys() for c in shapes))
    assert get("ssca.figure4").config_keys() == frozenset(M.SSCA27Config.keys()) | frozenset(M.SSCA37Config.keys())


@pytest.mark.parametrize("experiment, setting, message", [
    ("ssca.convergence", "tau=-1", "error: tau=-1 is not admissible: a finite number > 0"),
    ("ssca.figure2", "clients=0", "error: clients=0 is not admissible: an integer >= 1 (I)"),
    ("ssca.theorem5", "starts=0", "error: starts=0 is not admissible: an integer >= 1"),
])
def test_cli_refuses_a_bad_set_value_with_one_line(tmp_path, experiment, setting, message, repro_main):
    out = repro_main("run", experiment, "--set", setting, "--no-progress", cwd=PACKAGE.parents[2],
                     env={"REPRO_RESULTS_DIR": str(tmp_path / "results")})
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.strip() == message, out.stderr
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*.npz"))


def _digits(spec: RunSpec, **changes) -> RunSpec:
    """The spec (and, for an SGD run, its learning-rate search) at toy scale on the digits stand-in."""
    small = {"dataset": "digits", "hidden": 8, "iterations": 40, "checkpoints": [1, 20, 40]}
    if spec.config["method"] == "sgd":
        small |= {"sgd_grid": [[0.3, 0.3], [3.0, 0.3]], "grid_iterations": 10}
    if spec.config.get("solver_checks"):
        small["solver_checks"] = [20, 40]
    return override(spec, small | changes)


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_every_curve_of_a_seed_needs_one_run_for_its_initial_point(profile):
    """Figures 2-3's curves evaluate t = 1 once per seed: every curve with t = 1 among its checkpoints needs the
    seed's run_initial_metrics, the same spec across both figures."""
    curves = [s for name in ("ssca.figure2", "ssca.figure3") for s in get(name).specs(profile)]
    assert all(1 in s.config["checkpoints"] and "initial" in s.needs for s in curves)
    initial = {s.needs["initial"] for s in curves}
    assert sorted(dep.seed for dep in initial) == list(range(M.SEEDS[profile]))
    assert all(dep.seed == s.seed for s in curves for dep in [s.needs["initial"]])


def test_a_curve_given_its_initial_point_records_what_it_would_compute_itself(tmp_path):
    spec = _digits(get("ssca.figure3").specs("quick")[0])
    dep = spec.needs["initial"]
    own, other = runner.run_all([dep, RunSpec(dep.experiment, dep.config, dep.seed + 1, dep.function)],
                                results_root=tmp_path, progress=False)
    config = runner.typed_config(M.run_mnist_ssca, spec.config)
    given, _ = M.run_mnist_ssca(config, spec.seed, {"initial": own})
    alone, _ = M.run_mnist_ssca(config, spec.seed)
    assert given.keys() == alone.keys()
    for name in alone:
        if name != "seconds":
            np.testing.assert_array_equal(given[name], alone[name], err_msg=name)
    with pytest.raises(RuntimeError, match="seed 1"):
        M.run_mnist_ssca(config, spec.seed, {"initial": other})
    float64 = runner.run_all([RunSpec(dep.experiment, dep.config | {"dtype": "float64"}, dep.seed, dep.function)],
                             results_root=tmp_path, progress=False)[0]
    with pytest.raises(RuntimeError, match="its own seed 0 and data"):
        M.run_mnist_ssca(config, spec.seed, {"initial": float64})
    relabelled = dataclasses.replace(own, arrays=other.arrays)
    with pytest.raises(RuntimeError, match="another initial point"):     # the digest: omega^(1) itself
        M.run_mnist_ssca(config, spec.seed, {"initial": relabelled})


def _tiny_specs() -> dict:
    q = "quick"
    conv = [RunSpec(s.experiment, s.config | {"iterations": 300}, s.seed, s.function)
            for s in get("ssca.convergence").specs(q) if s.seed == 0]
    thm5 = [RunSpec(s.experiment, s.config | {"lambdas": [1e-2], "limit_fractions": [0.4]}, s.seed, s.function)
            for s in get("ssca.theorem5").specs(q)[:1]]
    pep = [RunSpec(s.experiment, s.config | {"t": [1, 2]}, s.seed, s.function) for s in get("ssca.pep").specs(q)]
    out = {"ssca.convergence": conv, "ssca.theorem5": thm5, "ssca.pep": pep}
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
            assert errs.size == 2
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
    verdicts = A.verdicts(results)
    assert [v.claim for v in verdicts] == [c.id for c in B.CLAIMS] + [s.id for s in ST.STATEMENTS]
    # the closed-form evidence counts what the runs computed: a violation iff an error beyond the tolerance
    for claim, formulation in (("ssca.eq35_36", "27"), ("ssca.lemma1", "37")):
        errs = np.concatenate([r.arrays["closed_form_error"][np.isfinite(r.arrays["closed_form_error"])
                                                              & (r.arrays["solver_status"] == 1.0)]
                               for n in ("ssca.figure2", "ssca.figure3") for r in results[n]
                               if r.spec.config.get("formulation") == formulation and "closed_form_error" in r.arrays])
        ev = [e for v in verdicts if v.claim == claim for e in v.evidence if "vs cvxpy" in e.source]
        assert any(e.bearing.value == "violates" for e in ev) == bool((errs > EV.CLOSED_FORM_TOL).any())
    text = A.audit_section(results, "quick", verdicts)
    for heading in ("### Step-size conditions (4) and (6)", "### Lemma 4, the descent inequality (51)",
                    "### Theorems 1-4: trends", "### Closed forms on the experiments' own quantities",
                    "### (32) as printed", "### Theorem 5", "### Not reproduced", "### Symbolic and settings findings",
                    "### Claims and verdicts"):
        assert heading in text


def _convergence_run(problem: str, steps: str = "theory_a", mode: str = "sample", iterations: int = 400):
    cfg = C.ConvergenceConfig(problem=problem, steps=steps, mode=mode, iterations=iterations, profile="quick")
    return C.run_convergence(cfg, 0)


def _one_at_a_time(problem, states, c: float, reference, probe) -> dict:
    """The convergence series computed iteration by iteration with the one-model oracle and the one-instance KKT
    residuals (the reference for :func:`repro.papers.ssca.runs.convergence._metrics`)."""
    M, rows, prev = problem.n_constraints, [], None
    for st in states:
        values, grads = problem.full_values_and_grads(st.omega)
        row = {"F0": values[0], "omega_norm": np.linalg.norm(st.omega)}
        if reference is not None:
            row["dist_reference"] = np.linalg.norm(st.omega - reference)
        if M == 0:
            row["kkt"] = B.kkt_unconstrained(grads[0])["stationarity"]
            if prev is not None:
                w0, f0, g0 = prev
                row |= {"descent": values[0] - f0, "delta": np.linalg.norm(st.omega_bar - w0),
                        "tracking": np.linalg.norm(g0 + 2 * st.tau * (st.omega_bar - w0))}
        else:
            F = values[1:] - problem.constraint_levels
            zeros = np.zeros(M)
            nu, zeta = (zeros, zeros) if st.nu is None else (st.nu, st.zeta)
            row |= {"kkt": B.kkt_constrained(grads[0], grads[1:], F)["max"], "constraint": F.max(),
                    "kkt_penalty": B.kkt_penalty(grads[0], grads[1:], F, zeta, c, multipliers=nu)["max"]}
            if prev is not None:
                w, lin, tau = st.omega, st.f_hat_lin, st.tau
                exact = problem.exact_objective_weight is not None
                gaps = np.linalg.norm(lin + 2 * tau * w - grads, axis=1)
                d = probe - w
                gap = np.abs(st.f_hat_const + lin[1:] @ probe + tau * probe @ probe
                             - (values[1:] + grads[1:] @ d + tau * d @ d))
                if not exact:
                    moved = lin[0] @ d + tau * (probe @ probe - w @ w)
                    gap = np.append(gap, abs(moved - (grads[0] @ d + tau * d @ d)))
                row |= {"tracking_value": np.max(np.abs(st.f_hat_const + lin[1:] @ w + tau * w @ w - values[1:])),
                        "tracking": np.max(gaps[1:] if exact else gaps), "surrogate_gap": np.max(gap)}
        rows.append(row)
        prev = (st.omega, values[0], grads[0])
    return {k: np.array([r.get(k, np.nan) for r in rows]) for k in rows[-1]}


@pytest.mark.parametrize("problem", C.PROBLEMS)
@pytest.mark.parametrize("mode", ["sample", "feature"])
def test_the_series_evaluated_after_the_run_are_those_of_each_iteration(problem, mode):
    """Trajectory evaluates every iteration of a run at once; each series equals the one computed iteration by
    iteration (NaN where it is undefined: the first iteration), up to rounding."""
    config = C.ConvergenceConfig(problem=problem, steps="theory_a", mode=mode, iterations=12, profile="quick")
    problem_, _, _, info = C.build_problem(config, np.random.default_rng(3))
    reference, probe = info.get("reference"), info.get("probe")
    trajectory = C.Trajectory()
    clients = np.arange(config.n).reshape(config.clients, -1) if mode == "sample" else None
    params = C.alg.SSCAParams(tau=config.tau, steps=C.alg.PowerLawSteps(*C.STEPS["theory_a"]), iterations=12,
                              batch=C.BATCH[mode], omega1=np.random.default_rng(4).normal(size=problem_.dim),
                              penalty=config.penalty, checkpoints=tuple(range(1, 13)), client_indices=clients,
                              monitor=trajectory)
    run = C.alg.run_sample_based if mode == "sample" else C.alg.run_feature_based
    got = trajectory.observed(run(problem_, params, np.random.default_rng(5)), problem_, config.penalty, reference,
                              probe).monitor
    expected = _one_at_a_time(problem_, trajectory.states, config.penalty, reference, probe)
    assert set(got) == set(expected)
    for name, series in expected.items():
        np.testing.assert_allclose(got[name], series, rtol=1e-9, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("problem", ["logistic_l2", "nonconvex_logistic"])
@pytest.mark.parametrize("mode", ["sample", "feature"])
def test_lemma4_is_judged_at_every_iteration_and_can_fail(problem, mode):
    arrays, meta = _convergence_run(problem, mode=mode)
    claims, trace = [B.claim("ssca.lemma4")], V.cached_trace(arrays)
    (out,) = check_claims(V.check, claims, V.CheckProblem(meta["mu"], meta["L_hat"]), trace)
    assert out.claim_id == "ssca.lemma4" and out.n_checked == 399
    assert out == V.lemma4_outcome(*V.lemma4_series(trace), meta["mu"], meta["L_hat"])
    # the outcome reports what (51) computes on the logged series: passed iff no iteration exceeds the bound
    descent, gamma, delta, err = V.lemma4_series(trace)
    bound = gamma * delta * err - gamma * (meta["mu"] - meta["L_hat"] * gamma / 2) * delta**2
    excess = np.max(descent - bound)
    assert out.passed == (excess <= 1e-10 or excess <= 1e-12 * max(1.0, np.abs(descent).max(), np.abs(bound).max()))
    # the same check with the modulus overstated (the surrogate claimed 5x more strongly convex) must fail
    (over,) = check_claims(V.check, claims, V.CheckProblem(5 * meta["mu"], meta["L_hat"]), trace)
    assert not over.passed


def test_check_is_the_one_entry_and_refuses_claims_it_does_not_observe():
    arrays, meta = _convergence_run("logistic_l2", iterations=20)
    trace = V.cached_trace(arrays)
    assert trace.checkpoints == tuple(range(1, 21)) and np.array_equal(trace.gamma, arrays["gamma"])
    with pytest.raises(ValueError, match="ssca.thm1"):
        check_claims(V.check, [B.claim("ssca.thm1")], V.CheckProblem(meta["mu"], meta["L_hat"]), trace)
    with pytest.raises(ConfigError, match="^mu="):
        V.CheckProblem(0.0, 1.0)


def test_the_trend_evidence_reports_what_the_runs_computed():
    """Theorems 1-4 are almost-sure limits: the audit reports the trend of the KKT residual on the runs inside (4)
    and (6) as not-checkable evidence; it must count what the runs computed (whether or not the residual fell)."""
    runs = []
    for i, problem in enumerate(C.PROBLEMS):
        arrays, meta = _convergence_run(problem, iterations=400)
        v = B.power_law_conditions(*C.STEPS["theory_a"])
        assert (meta["conditions_4"], meta["conditions_6"]) == (v.holds4, v.holds6)
        spec = type("S", (), {"config": {"problem": problem, "mode": "sample"}, "seed": 0})()
        runs.append(type("R", (), {"spec": spec, "arrays": arrays, "meta": {"metadata": meta}, "hash": f"h{i}"})())
    ev = {e.claim: e for e in EV._trend_evidence(runs)}
    for claim, problems in (("ssca.thm1", C.PROBLEMS[:2]), ("ssca.thm2", C.PROBLEMS[2:])):
        fell = sum(r.arrays["kkt"][-1] < r.arrays["kkt"][0] for r in runs if r.spec.config["problem"] in problems)
        assert ev[claim].bearing.value == "not checkable" and ev[claim].checks == len(problems)
        assert f"fell on {fell} of {len(problems)} runs" in ev[claim].summary
    # the limits of Lemmas 2 and 5, from the first value a run defines (a tracking error needs a previous iterate)
    every = EV._trend_evidence(runs)
    for claim, problems, key in (("ssca.lemma2", C.PROBLEMS[:2], "tracking"),
                                 ("ssca.lemma5", C.PROBLEMS[2:], "tracking_value"),
                                 ("ssca.lemma5", C.PROBLEMS[2:], "surrogate_gap")):
        mine = [r for r in runs if r.spec.config["problem"] in problems]
        series = [r.arrays[key][np.isfinite(r.arrays[key])] for r in mine]
        assert all(s.size >= len(r.arrays["t"]) - 2 for s, r in zip(series, mine))
        fell = sum(s[-1] < s[0] for s in series)
        assert any(e.claim == claim and f"the {EV._TREND_NAMES[key]} fell on {fell} of {len(problems)} runs"
                   in e.summary for e in every), (claim, key)


def test_theorem5_on_the_tiny_network():
    config = T5.Theorem5Config(lambdas=[1e-2], limit_fractions=[0.4], starts=T5.STARTS["quick"], profile="quick")
    arrays, _ = T5.run_theorem5(config, 0)
    # the solvers reach the theorem's hypotheses on this instance (a local minimiser of (27); a KKT point of (37))
    assert arrays["i_grad_norm"][0] < 1e-8 and arrays["i_hess_min_27"][0] > 0
    assert arrays["ii_xi"][0] > 0 and arrays["ii_kkt_residual_37"][0] < 1e-5
    # the evidence reports what the run computed: a violation iff the instance breaks the statement
    run = type("R", (), {"arrays": arrays, "hash": "t5"})()
    ev = EV._theorem5_evidence([run])
    i_bad = arrays["i_violation"][0] > EV.THM5_TOL
    ii_bad = arrays["ii_stationarity_27"][0] > EV.KKT_TOL
    assert any(e.claim == "ssca.thm5.i" and e.bearing.value == "violates" for e in ev) == bool(i_bad)
    assert any(e.claim == "ssca.thm5.ii" and e.source == "ssca.theorem5" and e.bearing.value == "violates"
               for e in ev) == bool(ii_bad)


PACKAGE = Path(X.__file__).resolve().parent



def test_registry_contract():
    """What the shared layers read: the experiments (their figures drawn by :mod:`.figures`) and the audit's
    ``AUDIT_EXPERIMENTS`` and ``audit_section``."""
    assert paper("ssca").experiments is X.EXPERIMENTS and paper("ssca").audit() is A
    assert A.AUDIT_EXPERIMENTS == tuple(e.name for e in X.EXPERIMENTS)
    assert all(e.figure.__module__ == FIG.__name__ for e in X.EXPERIMENTS if e.figure)
    assert callable(A.audit_section) and callable(A.verdicts) and paper("ssca").key == S.PAPER == "ssca"


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
