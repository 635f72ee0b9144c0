"""The authors' code against the paper's reading (fedclup.readings, fedclup.readings_fig23): the radius reading of R
puts the generator's models on the boundary of (5) with the same mean, both readings are run with their own keys, and a
statement about Figures 2-4 that one reading supports and the other violates is a discrepancy finding of kind
"code"."""
from types import SimpleNamespace

import numpy as np
import pytest

from repro.papers.fedclup import audit as A
from repro.papers.fedclup import statements as ST
from repro.papers.fedclup.problems import synthetic as SYN
from repro.papers.fedclup.runs import logistic as logi


@pytest.mark.parametrize("R", [0.0, 0.3, 2.5])
def test_the_radius_reading_puts_the_models_on_the_boundary_of_5(R):
    code = SYN.generate(10, 20, 4, 2, R, seed=3)
    radius = SYN.generate(10, 20, 4, 2, R, seed=3, heterogeneity="radius")
    np.testing.assert_allclose(radius["W_bar"], code["W_bar"], atol=1e-15)
    dev = np.sqrt(np.sum((radius["W_true"] - radius["W_bar"]) ** 2, axis=(1, 2)))
    assert dev.max() == pytest.approx(R, abs=1e-12) and np.all(dev <= R + 1e-12)
    assert np.array_equal(radius["X"], code["X"])                 # the same draws: only the models are rescaled
    assert np.array_equal(SYN.generate(10, 20, 4, 2, R, seed=3, heterogeneity="entry_std")["W_true"], code["W_true"])
    with pytest.raises(ValueError, match="heterogeneity"):
        SYN.generate(10, 20, 4, 2, R, seed=3, heterogeneity="bogus")


def test_both_readings_are_run_with_their_own_keys():
    specs = logi.readings_specs("quick")
    members = [m for s in specs for m in s.config["members"]]
    for name, keys in logi.READINGS.items():
        mine = [m for m in members if all(m[k] == v for k, v in keys.items())]
        assert {m["R"] for m in mine} == set(logi.READING_R["quick"])
        assert {m["data_seed"] for m in mine} == set(logi.DATA_SEEDS["quick"])
        expected = set(logi.METHODS) - (set(logi.CODE_READING_BASELINES) if name == "code" else set())
        assert {m["method"] for m in mine} == expected
    assert len(members) == len(logi.READING_R["quick"]) * (5 + 3) * len(logi.DATA_SEEDS["quick"])


def test_the_code_reading_takes_its_baselines_from_figure4():
    # the baselines use neither the server rule nor L: figure4's runs at the same R and seeds are the code's reading
    figure4 = [m for s in logi.figure4_specs("quick") for m in s.config["members"]]
    for R in logi.READING_R["quick"]:
        for method in logi.CODE_READING_BASELINES:
            found = [m for m in figure4 if m["R"] == R and m["method"] == method]
            assert {m["data_seed"] for m in found} == set(logi.DATA_SEEDS["quick"])
            assert all(m["heterogeneity"] == logi.READINGS["code"]["heterogeneity"] for m in found)
    code = [SimpleNamespace(spec=SimpleNamespace(config=logi.READINGS["code"] | {"R": 3.0, "method": "fedclup",
                                                                                "lam": 0.5, "data_seed": 1}))]
    base = [SimpleNamespace(spec=SimpleNamespace(config={"R": R, "method": m, "lam": None, "data_seed": s,
                                                         "heterogeneity": "entry_std"}))
            for R in (0.1, 3.0) for m in ("globaltrain", "localtrain", "fedclup") for s in (1, 2)]
    picked = ST._reading_runs({"fedclup.readings": code, "fedclup.figure4": base}, "code")
    assert picked[0] is code[0]
    assert sorted((r.spec.config["method"], r.spec.config["R"], r.spec.config["data_seed"]) for r in picked[1:]) == \
        [("globaltrain", 3.0, 1), ("localtrain", 3.0, 1)]


def _runs(reading: str, global_minus_best: float) -> list:
    """Fake members of one reading: at the smallest R, GlobalTrain's final error is ``global_minus_best`` away from
    the best other method's, per seed; at the largest R, LocalTrain is best and lambda 0.02 beats 0.5."""
    keys, metric = logi.READINGS[reading], ST.FIG4_READING_METRIC[reading]
    out = []
    for seed, jitter in zip((1, 2, 3), (0.0, 0.01, -0.01)):
        for R in logi.READING_R["quick"]:
            low = R == logi.READING_R["quick"][0]
            errors = {("fedclup", 0.02): 3.0, ("fedclup", 0.1): 3.5, ("fedclup", 0.5): 2.0 if low else 4.0,
                      ("globaltrain", None): (2.0 + global_minus_best if low else 5.0),
                      ("localtrain", None): 6.0 if low else 1.0}
            for (method, lam), e in errors.items():
                config = keys | {"R": R, "method": method, "lam": lam, "data_seed": seed}
                out.append(SimpleNamespace(spec=SimpleNamespace(config=config, seed=0),
                                           arrays={metric: np.array([9.0, e + jitter])}))
    return out


def test_a_statement_that_the_readings_decide_differently_is_a_discrepancy():
    results = {"fedclup.readings": _runs("code", -1.0) + _runs("paper", +1.0)}
    found = {f.id: f for f in A.readings_findings(results)}
    f = found["fedclup.code.readings.figure4.globaltrain_low_heterogeneity"]
    assert f.kind == "code" and f.verdict == "discrepancy" and f.claims == ("fedclup.figure4.globaltrain_low_heterogeneity",)
    assert "supports" in f.summary and "violates" in f.summary and "GlobalTrain achieves the lowest" in f.summary
    assert found["fedclup.code.readings.figure4.localtrain_high_heterogeneity"].verdict == "consistent"


def test_the_same_decision_under_both_readings_is_consistent():
    results = {"fedclup.readings": _runs("code", -1.0) + _runs("paper", -1.0)}
    assert {f.verdict for f in A.readings_findings(results)} == {"consistent"}
    assert A.readings_findings({}) == []


def test_figures_2_and_3_are_run_under_both_readings_and_told_apart():
    members = [m for s in logi.readings_fig23_specs("quick") for m in s.config["members"]]
    own = [m for s in logi.figure2_specs("quick") + logi.figure3_specs("quick") for m in s.config["members"]]
    strip = lambda m: {k: v for k, v in m.items() if k not in ("server", "heterogeneity", "L")}    # noqa: E731
    for name, keys in logi.READINGS.items():
        mine = [m for m in members if all(m[k] == v for k, v in keys.items())]
        expected = [m for m in own if name == "paper" or m["method"] not in logi.CODE_READING_BASELINES]
        assert sorted(map(repr, map(strip, mine))) == sorted(map(repr, map(strip, expected)))
    assert {logi.reading_figure(m["rounds"]) for m in members} == {2, 3}
    assert all((logi.reading_figure(m["rounds"]) == 2) == (m["rounds"] == logi.FIG2_ROUNDS) for m in members)


def _figure3_runs(reading: str, one_lambda_always_best: bool) -> list:
    """Fake Figure 3 members of one reading: FedCLUP at two lambdas and the two baselines (baselines of the code's
    reading as fedclup.figure3's own runs); lambda 0.02 is fastest at every target, or the two lambdas trade places."""
    keys, metric = logi.READINGS[reading], ST.FIG4_READING_METRIC[reading]
    t = np.arange(100.0)
    curves = {("fedclup", 0.02): 10 * np.exp(-t / 5) + 0.1,
              ("fedclup", 0.5): (10 * np.exp(-t / 3) + 0.5) if not one_lambda_always_best else 10 * np.exp(-t / 9) + 0.2,
              ("globaltrain", None): 10 * np.exp(-t / 20) + 1.0, ("localtrain", None): 10 * np.exp(-t / 30) + 1.0}
    own, base = [], []
    for seed in (1, 2, 3):
        for (method, lam), curve in curves.items():
            config = keys | {"R": 1.0, "rounds": logi.FIG3_ROUNDS, "method": method, "lam": lam, "data_seed": seed}
            if reading == "code" and method in logi.CODE_READING_BASELINES:
                config = config | {"heterogeneity": "entry_std", "L": "data"}
                base.append(SimpleNamespace(spec=SimpleNamespace(config=config, seed=0), arrays={metric: curve}))
            else:
                own.append(SimpleNamespace(spec=SimpleNamespace(config=config, seed=0), arrays={metric: curve}))
    return own, base


def test_a_figure3_statement_the_readings_decide_differently_is_a_discrepancy():
    code, base = _figure3_runs("code", one_lambda_always_best=True)
    paper, _ = _figure3_runs("paper", one_lambda_always_best=False)
    results = {"fedclup.readings_fig23": code + paper, "fedclup.figure3": base}
    assert len(ST._reading_runs(results, "code", 3)) == len(ST._reading_runs(results, "paper", 3)) == 12
    assert ST._reading_runs(results, "code", 2) == []
    found = {f.id: f for f in A.readings_findings(results)}
    f = found["fedclup.code.readings.figure3.no_fixed_best"]
    assert f.verdict == "discrepancy" and f.claims == ("fedclup.figure3.no_fixed_best",)
    assert "python -m repro run fedclup.readings_fig23" in f.evidence
    assert found["fedclup.code.readings.figure3.least_communication"].verdict == "consistent"


def test_figure3_readings_without_the_code_baselines_compare_nothing_and_do_not_fail():
    code, _ = _figure3_runs("code", one_lambda_always_best=True)          # fedclup.figure3 not cached: no baselines
    paper, _ = _figure3_runs("paper", one_lambda_always_best=False)
    found = {f.id: f for f in A.readings_findings({"fedclup.readings_fig23": code + paper})}
    assert found == {}                     # the code's reading compares nothing, so no statement is paired


def _figure6_runs(sign_by_server: dict) -> list:
    """Fake Figure 6 members: at every round, lambda 0.5's local error minus lambda 0.02's is ``sign`` per server."""
    out = []
    for server, sign in sign_by_server.items():
        for seed, jitter in zip((1, 2, 3), (0.0, 0.01, -0.01)):
            for lam, err in ((0.02, 1.0), (0.5, 1.0 + sign * (0.5 + jitter))):
                config = {"method": "fedclup", "lam": lam, "m": 100, "server": server, "data_seed": seed}
                out.append(SimpleNamespace(spec=SimpleNamespace(config=config, seed=0),
                                           arrays={"local_err": np.full(11, err)}))
    return out


def test_figure6_under_the_two_server_rules():
    split = A.figure6_server_findings({"fedclup.figure6": _figure6_runs({"average_all": +1, "eq12": -1})})
    assert [(f.id, f.verdict, f.kind) for f in split] == [("fedclup.code.server.figure6.early.m100", "discrepancy",
                                                          "code")]
    assert "the mean of all m stored client models" in split[0].summary and "supports" in split[0].summary
    same = A.figure6_server_findings({"fedclup.figure6": _figure6_runs({"average_all": +1, "eq12": +1})})
    assert [f.verdict for f in same] == ["consistent"]
    assert A.figure6_server_findings({}) == []


def test_the_adaptive_rule_is_compared_between_readings_at_each_starting_lambda():
    """'we gradually increase lambda' is paired per starting lambda (the open choice): the two readings disagreeing at
    one start is a discrepancy even where they agree at the last start listed."""
    def adaptive(reading, switched):            # start -> lambda after the switch, one data seed, one constant
        return [SimpleNamespace(spec=SimpleNamespace(config=logi.READINGS[reading] | {
                    "method": "fedclup", "lam": lam, "adapt_constant": 5.0, "data_seed": 1, "R": 1.0,
                    "rounds": logi.FIG3_ROUNDS}, seed=0), arrays={"lambda_switched": np.array(switched[lam])})
                for lam in logi.ADAPTIVE_STARTS]
    up = {lam: 10 * lam for lam in logi.ADAPTIVE_STARTS}
    first_lowered = up | {logi.ADAPTIVE_STARTS[0]: logi.ADAPTIVE_STARTS[0] / 10}
    found = {f.id: f for f in A.readings_findings({"fedclup.readings_fig23": adaptive("code", first_lowered)
                                                    + adaptive("paper", up)})}
    f = found["fedclup.code.readings.figure3.dynamic_lambda"]
    assert f.verdict == "discrepancy" and f.summary.count("Under the authors' code") == len(logi.ADAPTIVE_STARTS)
    same = A.readings_findings({"fedclup.readings_fig23": adaptive("code", up) + adaptive("paper", up)})
    assert [g.verdict for g in same] == ["consistent"]
