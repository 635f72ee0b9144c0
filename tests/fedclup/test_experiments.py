"""FedCLUP experiments end to end at toy scale: specs, run functions, figures, audit section; and the layering of
the package's experiments, figures, audit and summaries modules."""
import os

import numpy as np
import pytest

from bounds.fedclup import claims as B
from repro import runner
from repro.batches import MEMBERS, batch_spec, member_configs, members
from repro.papers.fedclup import audit as A
from repro.papers.fedclup import experiments as X
from repro.papers.fedclup.runs import logistic as LG
from repro.registry import get, paper
from repro.runner import RunSpec

DATA = os.environ.get("REPRO_DATA_DIR")
needs_data = pytest.mark.skipif(not DATA or not os.path.isdir(os.path.join(DATA, "mnist")),
                                reason="platform: set REPRO_DATA_DIR to the folder holding the real datasets")


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_specs_are_well_formed(profile):
    for name in A.AUDIT_EXPERIMENTS:
        exp = get(name)
        specs = exp.specs(profile)
        assert specs and len({s.hash for s in specs}) == len(specs), name
        assert exp.config is not None and exp.validate is None, name      # the config dataclass validates
        for s in specs:
            for config in member_configs(s.config):
                exp.check_config(config)
    fig4 = [c for s in get("fedclup.figure4").specs(profile) for c in member_configs(s.config)]
    # the authors' Figure 4 settings (their code's notebook `simulation_main_stat.ipynb`): 10 R x (3 FedCLUP
    # lambdas, GlobalTrain, LocalTrain) per seed
    assert len(fig4) == 50 * len(LG.DATA_SEEDS[profile]) and len({repr(sorted(c.items())) for c in fig4}) == len(fig4)
    assert {c["R"] for c in fig4} == set(LG.FIG4_R)
    assert {(c["method"], c["rounds"]) for c in fig4} == {("fedclup", 50), ("globaltrain", 50), ("localtrain", 500)}
    assert all(c["local_steps"] == 150 and (c["m"], c["n"], c["d"]) == (10, 200, 10) for c in fig4)
    assert {c["m"] for s in get("fedclup.figure6").specs(profile) for c in member_configs(s.config)} == {100, 1000}


def test_bad_configs_are_refused():
    cfg = LG.figure4_specs("quick")[0].config["members"][0]
    with pytest.raises(ValueError, match="method"):
        LG.LogisticConfig.from_dict(cfg | {"method": "scaffold"})
    with pytest.raises(ValueError, match="local_steps"):
        LG.LogisticConfig.from_dict(cfg | {"local_steps": 0})
    with pytest.raises(ValueError, match="L="):
        LG.LogisticConfig.from_dict(cfg | {"L": "guess"})


def test_a_batch_trains_each_distinct_run_once_and_each_member_is_its_run_alone():
    # the generator's data do not depend on R: the two R values of lambda = 0.1 are one training, measured against
    # their own truths; every member's arrays are those of its run computed alone
    small = {"m": 3, "n": 20, "d": 3, "rounds": 2, "local_steps": 3, "data_seed": 1, "profile": "quick"}
    configs = tuple(LG.LogisticConfig(method="fedclup", lam=lam, R=R, **small)
                    for lam, R in ((0.1, 0.5), (0.1, 2.0), (0.5, 0.5)))
    assert LG._distinct(LG._members(configs, 0))[1] == [0, 0, 1]
    batch, _ = LG.run_logistic(configs, 0)
    assert not np.array_equal(batch["global_err"][0], batch["global_err"][1])
    for i, c in enumerate(configs):
        alone, _ = LG.run_logistic((c,), 0)
        for name, values in alone.items():
            np.testing.assert_array_equal(batch[name][i], values[0])


def test_rounds_to_accuracy_stops_at_the_round_one_long_run_reaches():
    from repro.papers.fedclup.runs import optimization as O

    lam = 100.0
    config = O.RoundsConfig(kappa=16.0, lams=[lam], profile="quick")
    inst, data, rng = O._data(config, 0)
    c = O.derived_choices(inst.mu_design, inst.L_design, lam)
    trace = O._run(inst, data, rng, lam, c["gamma"], c["eta"], c["K"], 200)
    e = O._sq(trace.global_models - O.LR.solve_pfl(data["A"], data["b"], np.array([lam]))[0][0])
    first = int(np.flatnonzero(e <= config.eps_rel * e[0])[0])
    assert 16 < first < 200                     # beyond the first stretch of 16 rounds
    assert O._rounds_to_accuracy(inst, data, rng, lam, c, 200, config.eps_rel) == first
    assert O._rounds_to_accuracy(inst, data, rng, lam, c, first - 1, config.eps_rel) == -1


def _shrink(spec: RunSpec, **changes) -> RunSpec:
    if MEMBERS in spec.config:
        return batch_spec(spec.experiment, [c | changes for c in spec.config[MEMBERS]], spec.seed, spec.function)
    return RunSpec(spec.experiment, spec.config | changes, spec.seed, spec.function)


def _keep(specs, predicate) -> list[RunSpec]:
    """The batch specs restricted to the members for which ``predicate(config)`` holds (empty batches dropped)."""
    out = []
    for s in specs:
        kept = [c for c in member_configs(s.config) if predicate(c)]
        if kept:
            out.append(batch_spec(s.experiment, kept, s.seed, s.function))
    return out


def _tiny_specs() -> dict:
    q = "quick"
    stat = [_shrink(s, reps=12) for s in get("fedclup.statistical").specs(q)
            if s.config["m"] == 10 and s.config["n"] == 20 and s.config["spectrum"][0] == 0.5]
    minimax = [_shrink(s, reps=8, **({"m": 200} if s.config["regime"] == "transition" else {}))
               for s in get("fedclup.minimax").specs(q)]
    tradeoff = [_shrink(s, rounds=8, reps=2) for s in get("fedclup.tradeoff").specs(q)]
    thm2 = [_shrink(s, rounds=25) for s in get("fedclup.theorem2").specs(q) if s.config["kappa"] == 4.0]
    rounds = [_shrink(s, lams=[0.1, 10.0]) for s in get("fedclup.rounds").specs(q)[:1]]
    stoch = [_shrink(s, replicates=100) for s in get("fedclup.stochastic").specs(q)
             if s.config["part"] == "lemma7"][:2]
    stoch += [_shrink(s, rounds=12) for s in get("fedclup.stochastic").specs(q) if s.config["part"] == "ball"]
    small = {"n": 30, "d": 3}
    fig4 = [_shrink(s, **small, rounds=2, local_steps=3) for s in _keep(
        get("fedclup.figure4").specs(q), lambda c: c["data_seed"] == 1 and c["R"] in LG.FIG4_R[:2])]
    fig2 = [_shrink(s, **small, rounds=2) for s in _keep(get("fedclup.figure2").specs(q), lambda c: c["data_seed"] == 1)]
    fig3 = [_shrink(s, **small, rounds=4, local_steps=3) for s in _keep(get("fedclup.figure3").specs(q),
                                                                         lambda c: c["data_seed"] == 1)]
    fig6 = [_shrink(s, **small, rounds=2, local_steps=2) for s in get("fedclup.figure6").specs(q)]
    mnist = [_shrink(s, rounds=1, epochs=1) for s in get("fedclup.mnist").specs(q) if s.seed == 0]
    return {"fedclup.statistical": stat, "fedclup.minimax": minimax, "fedclup.tradeoff": tradeoff,
            "fedclup.theorem2": thm2, "fedclup.rounds": rounds, "fedclup.stochastic": stoch,
            "fedclup.figure4": fig4, "fedclup.figure2": fig2, "fedclup.figure3": fig3, "fedclup.figure6": fig6,
            "fedclup.mnist": mnist}


@needs_data
def test_toy_pipeline_figures_and_audit(tmp_path):
    root = tmp_path / "results"
    results = {name: members(runner.run_all(specs, results_root=root, progress=False))
               for name, specs in _tiny_specs().items()}
    verdicts = {v.claim: v for v in A.verdicts(results)}
    for r in results["fedclup.statistical"] + results["fedclup.theorem2"]:
        # what the suite reports: a claim with a failed check (hypotheses met) on these runs is violated and cites a
        # replayable run; K = 1 runs break (14-D) on purpose, and a failure there is no evidence
        for cid, passed, met in zip(r.arrays["claim_id"], r.arrays["passed"], r.arrays["hypotheses_met"]):
            if met and not passed:
                assert verdicts[str(cid)].verdict.value == "violated" and "python -m repro run" in \
                    verdicts[str(cid)].reason
    for r in results["fedclup.figure3"]:
        assert r.arrays["local_err"].shape == (5,) and np.all(np.isfinite(r.arrays["local_err"]))
    for r in results["fedclup.mnist"]:
        assert r.arrays["accuracy"].shape == (10,) and 0 <= r.arrays["global_accuracy"] <= 1
    paths = []
    for name in A.AUDIT_EXPERIMENTS:
        if get(name).figure is not None:         # fedclup.search draws no figure (its table is in the audit)
            paths += get(name).figure(results.get(name, []), "quick")   # fedclup.pep: not run here
    assert {p.name for p in paths} >= {f"figure{k}.png" for k in (1, 2, 3, 4, 5, 6)} | {
        "theorem1_lambda_curves.png", "theory_ratio.png", "minimax_regimes.png", "theorem2_contraction.png",
        "tables7_8.png", "theorem3_lemma7.png"}
    text = A.audit_section(results, "quick", list(verdicts.values()))
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| fedclup.")}
    claim_ids = {c.id for c in B.CLAIMS}
    for v in verdicts.values():      # the claims table shows every claim's verdict, and only that one
        if v.claim not in claim_ids:                    # a figure statement: its verdict, where it is listed
            assert v.claim not in rows or f" | {v.verdict.value} | " in rows[v.claim]
            continue
        assert rows[v.claim].startswith(f"| {v.claim} | {B.claim(v.claim).mode.value} |")
        assert f" | {v.verdict.value} | " in rows[v.claim]
    for heading in ("### Claims: derived bounds on exact linear-regression instances", "### Minimax rate",
                    "### Corollary 2 and the Tables 7-8 pattern", "### Tables 2 and 4, MNIST Logit rows",
                    "### Not reproduced", "### Symbolic and settings findings"):
        assert heading in text





def test_registry_contract():
    """What the shared layers read: the experiments (their figures drawn by :mod:`.figures`) and the audit's
    ``AUDIT_EXPERIMENTS``, ``verdicts`` and ``audit_section``."""
    assert paper("fedclup").experiments is X.EXPERIMENTS and paper("fedclup").audit() is A
    assert A.AUDIT_EXPERIMENTS == tuple(e.name for e in X.EXPERIMENTS)
    assert all(e.figure.__module__ == "repro.papers.fedclup.figures" for e in X.EXPERIMENTS if e.figure is not None)
    # tables in the audit only
    assert [e.name for e in X.EXPERIMENTS if e.figure is None] == ["fedclup.exact", "fedclup.readings",
                                                                   "fedclup.readings_fig23", "fedclup.search"]
    assert callable(A.audit_section) and callable(A.verdicts) and paper("fedclup").key == "fedclup"
