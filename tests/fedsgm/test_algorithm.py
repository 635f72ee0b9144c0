"""Tests of repro.papers.fedsgm.algorithms.fedsgm against Algorithm 1 of the paper (Appendix A;
the update of Section 3).

The reference below is written from the paper's pseudocode, deliberately naively: explicit Python
loops over rounds, clients, local steps and (for Rand-K) coordinates; every client is evaluated
on its own; X_j is formed as (w_t - w_{j,E}) / eta as the pseudocode sends it. The vectorised
implementation must agree with it to 1e-12.
"""
from __future__ import annotations

import numpy as np
import pytest

from repro.papers.fedsgm.algorithms.fedsgm import FedSGMParams, Output, Trace, output, run
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, LocalOracle

from repro.papers.fedsgm.problems.generators import random_instance as _random_instance
from repro.papers.fedsgm.problems.piecewise_linear import PiecewiseLinear1D


# ---------------------------------------------------------------------------- a local problem
class TinyProblem(ConvexLipschitzProblem):
    """f_j(w) = ||w - c_j||_1, g_j(w) = max(<u_j, w> - r_j, -||w||_inf): convex, Lipschitz with
    G = max(sqrt(d), max ||u_j||, 1). Subgradients: sign(0) = 0, argmax picks the first piece."""

    name = "tiny"

    def __init__(self, rng: np.random.Generator, n_clients: int, dim: int):
        self.n_clients, self.dim = n_clients, dim
        self.c = rng.normal(size=(n_clients, dim))
        self.u = rng.normal(size=(n_clients, dim))
        self.r = rng.uniform(0.0, 1.0, n_clients)
        self.G = float(max(np.sqrt(dim), np.linalg.norm(self.u, axis=1).max(), 1.0))

    def oracle(self, W):
        W = np.asarray(W, dtype=np.float64)
        diff = W - self.c
        f = np.abs(diff).sum(axis=-1)
        grad_f = np.sign(diff)
        lin = np.sum(W * self.u, axis=-1) - self.r
        i = np.argmax(np.abs(W), axis=-1)
        neg = -np.take_along_axis(np.abs(W), i[..., None], axis=-1)[..., 0]
        g = np.maximum(lin, neg)
        e = np.zeros_like(W)
        np.put_along_axis(e, i[..., None], 1.0, axis=-1)
        grad_neg = -np.sign(np.take_along_axis(W, i[..., None], axis=-1)) * e
        grad_g = np.where((lin >= neg)[..., None], np.broadcast_to(self.u, W.shape), grad_neg)
        return LocalOracle(f=f, g=g, grad_f=grad_f, grad_g=grad_g)

    def solve(self, w0):  # pragma: no cover - not needed here
        raise NotImplementedError


FAMILY_DIMS = {"piecewise_linear_1d": 1, "max_affine": 4, "huber_ball": 3, "logistic_ball": 3,
               "neyman_pearson": 3}


def make_problem(family: str, seed: int, n_clients: int = 3) -> ConvexLipschitzProblem:
    rng = np.random.default_rng(seed)
    if family == "tiny":
        return TinyProblem(rng, n_clients, 4)
    return _random_instance(family, rng, n_clients=n_clients, dim=FAMILY_DIMS[family])


FAMILIES = ["tiny", "piecewise_linear_1d", "max_affine", "huber_ball", "logistic_ball"]


# ---------------------------------------------------------------------------- the naive reference
def client_oracle(problem, j, w):
    """f_j, g_j and their subgradients at a single point w, for client j only."""
    o = problem.oracle(np.tile(w, (problem.n_clients, 1)))
    return float(o.f[j]), float(o.g[j]), np.array(o.grad_f[j]), np.array(o.grad_g[j])


def switching_weight_reference(g_value: float, eps: float, rule: str, beta: float | None) -> float:
    """The switching rules of Section 3, the soft one written piecewise in g(w_t), not through min/max."""
    if rule == "hard":
        return 1.0 if g_value > eps else 0.0
    if g_value >= eps:
        return 1.0
    if g_value <= eps - 1.0 / beta:
        return 0.0
    return 1.0 + beta * (g_value - eps)


def rand_k_reference(x, S, d, K):
    out = np.zeros(d)
    for i in S:
        out[int(i)] = (d / K) * x[int(i)]
    return out


def reference_run(problem, params, selected):
    """Algorithm 1, literally. ``selected[t, j]``: the Rand-K subset client j used in round t."""
    n, d, T, E, eta = problem.n_clients, problem.dim, params.T, params.E, params.eta
    w0 = np.zeros(d) if params.w0 is None else np.array(params.w0, dtype=float)
    ws = [w0]
    rec = {k: np.zeros((T, n, E)) for k in ("f_local", "g_local", "drift", "nu_sq")}
    rec |= {"f": np.zeros(T + 1), "g": np.zeros(T + 1), "sigma": np.zeros(T), "X_sq": np.zeros((T, n)),
            "X_mean": np.zeros((T, d)), "final_local": np.zeros((T, n, d)), "directions": np.zeros((T, n, E, d))}
    for t in range(T):
        w_t = ws[t]
        g_msgs, f_vals = [], []
        for j in range(n):                        # every client sends the scalar g_j(w_t)
            fj, gj, _, _ = client_oracle(problem, j, w_t)
            g_msgs.append(gj)
            f_vals.append(fj)
        g_t = sum(g_msgs) / n                     # server: g(w_t), broadcast
        rec["g"][t], rec["f"][t] = g_t, sum(f_vals) / n
        messages = []
        for j in range(n):
            w_loc = w_t.copy()                    # w_{j,0} = w_t
            for tau in range(E):
                sigma = switching_weight_reference(g_t, params.eps, params.switching, params.beta)
                fj, gj, dfj, dgj = client_oracle(problem, j, w_loc)
                nu = (1.0 - sigma) * dfj + sigma * dgj
                rec["f_local"][t, j, tau], rec["g_local"][t, j, tau] = fj, gj
                rec["drift"][t, j, tau] = float(np.sum((w_t - w_loc) ** 2))
                rec["nu_sq"][t, j, tau] = float(np.sum(nu**2))
                rec["directions"][t, j, tau] = nu
                w_loc = w_loc - eta * nu
            rec["sigma"][t] = sigma
            rec["final_local"][t, j] = w_loc
            X = (w_t - w_loc) / eta               # the message before compression
            rec["X_sq"][t, j] = float(np.sum(X**2))
            rec["X_mean"][t] += X / n
            messages.append(X if params.K is None else rand_k_reference(X, selected[t, j], d, params.K))
        ws.append(w_t - eta * sum(messages) / n)  # server step (4)
    fT, gT = [], []
    for j in range(n):
        fj, gj, _, _ = client_oracle(problem, j, ws[T])
        fT.append(fj)
        gT.append(gj)
    rec["f"][T], rec["g"][T] = sum(fT) / n, sum(gT) / n
    rec["w"] = np.array(ws)
    return rec


def params_exercising_switching(problem, switching, K, seed, T=20, E=3, eta=0.05):
    """w0 with g(w0) > 0 and eps a fraction of g(w0), chosen so that the (hard) run takes both
    f- and g-steps; beta (soft) so that weights strictly between 0 and 1 can occur."""
    rng = np.random.default_rng(seed + 1000)
    for radius in (2.0, 4.0, 8.0, 16.0, 32.0):
        direction = rng.normal(size=problem.dim)
        w0 = radius * direction / np.linalg.norm(direction)
        g0 = float(problem.global_values(w0)[1])
        if g0 > 0:
            break
    else:  # pragma: no cover
        raise AssertionError("no starting point with g(w0) > 0")
    for frac in (0.5, 0.8, 0.3, 0.9, 0.1, 0.97):
        eps = frac * g0
        probe = run(problem, FedSGMParams(T=T, E=E, eta=eta, eps=eps, w0=w0), np.random.default_rng(0))
        if 0.0 < probe.sigma.mean() < 1.0:
            break
    beta = 1.0 / eps if switching == "soft" else None     # linear band (0, eps): fractional weights
    return FedSGMParams(T=T, E=E, eta=eta, eps=eps, switching=switching, beta=beta, K=K, w0=w0,
                        record_directions=True)


# ---------------------------------------------------------------------------- (a) reference agreement
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("switching", ["hard", "soft"])
@pytest.mark.parametrize("compressed", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_naive_reference(family, switching, compressed, seed):
    problem = make_problem(family, seed)
    d = problem.dim
    K = None if not compressed else max(1, d // 2)
    params = params_exercising_switching(problem, switching, K, seed)
    trace = run(problem, params, np.random.default_rng(seed + 7))
    if compressed:
        assert trace.selected.shape == (params.T, problem.n_clients, K)
    else:
        assert trace.selected.shape == (params.T, problem.n_clients, 0)
    ref = reference_run(problem, params, trace.selected)
    tol = dict(rtol=1e-12, atol=1e-12)
    scale = max(1.0, float(np.abs(ref["w"]).max()))
    np.testing.assert_allclose(trace.w, ref["w"], rtol=1e-12, atol=1e-12 * scale)
    for key in ("f", "g", "sigma", "f_local", "g_local", "nu_sq"):
        np.testing.assert_allclose(getattr(trace, key), ref[key], **tol, err_msg=key)
    np.testing.assert_allclose(trace.drift, ref["drift"], rtol=1e-10, atol=1e-12 * scale**2)
    # X_j = (w_t - w_jE)/eta carries cancellation error ~ ulp(w)/eta in the reference
    np.testing.assert_allclose(trace.X_mean, ref["X_mean"], rtol=1e-10, atol=1e-12 * scale / params.eta)
    np.testing.assert_allclose(trace.X_sq, ref["X_sq"], rtol=1e-10, atol=1e-12 * scale / params.eta)
    np.testing.assert_allclose(trace.directions, ref["directions"], **tol)
    # the run exercised the switching rule on both sides
    if switching == "hard":
        assert set(np.unique(trace.sigma)) <= {0.0, 1.0}
    else:
        assert np.any((trace.sigma > 0) & (trace.sigma < 1)), "no fractional soft weight exercised"
    assert trace.sigma.min() < 1.0 and trace.sigma.max() > 0.0


def test_reference_detects_a_wrong_rule():
    """Self-test of the harness: a reference with the soft rule disagrees with a hard run."""
    problem = make_problem("tiny", 3)
    params = params_exercising_switching(problem, "hard", None, 3)
    trace = run(problem, params, np.random.default_rng(0))
    soft = FedSGMParams(**(params.__dict__ | {"switching": "soft", "beta": 0.5}))
    ref = reference_run(problem, soft, trace.selected)
    assert not np.allclose(trace.w, ref["w"], rtol=1e-6, atol=1e-9)


# ---------------------------------------------------------------------------- (b) eq. (11)
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("switching", ["hard", "soft"])
def test_uncompressed_step_is_mean_of_local_iterates(family, switching):
    """Without compression w_{t+1} = (1/n) sum_j w_{j,E}^t, one round at a time from the trace."""
    problem = make_problem(family, 5)
    params = params_exercising_switching(problem, switching, None, 5)
    trace = run(problem, params, np.random.default_rng(0))
    n = problem.n_clients
    for t in range(params.T):
        w_t = trace.w[t]
        sigma = switching_weight_reference(trace.g[t], params.eps, params.switching, params.beta)
        finals = []
        for j in range(n):
            w_loc = w_t.copy()
            for _ in range(params.E):
                _, _, dfj, dgj = client_oracle(problem, j, w_loc)
                w_loc = w_loc - params.eta * ((1 - sigma) * dfj + sigma * dgj)
            finals.append(w_loc)
        np.testing.assert_allclose(trace.w[t + 1], np.mean(finals, axis=0), rtol=1e-12, atol=1e-13)


def test_full_K_equals_no_compression():
    """Rand-K with K = d is the identity (q_u = 0): same iterates as without compression."""
    problem = make_problem("tiny", 2)
    p_none = params_exercising_switching(problem, "hard", None, 2)
    p_full = FedSGMParams(**(p_none.__dict__ | {"K": problem.dim}))
    a = run(problem, p_none, np.random.default_rng(0))
    b = run(problem, p_full, np.random.default_rng(1))
    np.testing.assert_array_equal(a.w, b.w)
    np.testing.assert_array_equal(a.sigma, b.sigma)


def test_compression_changes_the_trajectory():
    problem = make_problem("tiny", 2)
    p = params_exercising_switching(problem, "hard", 1, 2)
    p_none = FedSGMParams(**(p.__dict__ | {"K": None}))
    a = run(problem, p, np.random.default_rng(0))
    b = run(problem, p_none, np.random.default_rng(0))
    assert not np.allclose(a.w[1:], b.w[1:])


def test_directions_consistent_with_trace():
    problem = make_problem("tiny", 4)
    params = params_exercising_switching(problem, "soft", 2, 4)
    tr = run(problem, params, np.random.default_rng(3))
    np.testing.assert_allclose(np.sum(tr.directions**2, axis=-1), tr.nu_sq, rtol=1e-13)
    np.testing.assert_allclose(tr.directions.sum(axis=2).mean(axis=1), tr.X_mean, rtol=1e-12, atol=1e-14)
    assert np.all(tr.nu_sq <= problem.G**2 * (1 + 1e-12))          # ||nu|| <= G (Assumption 1)
    no_dirs = run(problem, FedSGMParams(**(params.__dict__ | {"record_directions": False})),
                  np.random.default_rng(3))
    assert no_dirs.directions is None
    np.testing.assert_array_equal(no_dirs.w, tr.w)


# ---------------------------------------------------------------------------- (c) determinism
@pytest.mark.parametrize("K", [None, 2])
def test_same_seed_bit_identical(K):
    problem = make_problem("max_affine" if _random_instance else "tiny", 11)
    params = params_exercising_switching(problem, "soft", K, 11)
    a = run(problem, params, np.random.default_rng(99))
    b = run(problem, params, np.random.default_rng(99))
    for key, va in a.arrays().items():
        vb = b.arrays()[key]
        assert va.dtype == vb.dtype and va.shape == vb.shape, key
        assert va.tobytes() == vb.tobytes(), key


def test_different_seed_different_selections():
    problem = make_problem("tiny", 12)
    params = params_exercising_switching(problem, "hard", 2, 12)
    a = run(problem, params, np.random.default_rng(1))
    b = run(problem, params, np.random.default_rng(2))
    assert not np.array_equal(a.selected, b.selected)
    # fresh randomness for every client and every round
    flat = a.selected.reshape(-1, 2)
    assert len({tuple(r) for r in flat}) > 1
    assert not all(np.array_equal(a.selected[0], a.selected[t]) for t in range(1, params.T))


def test_uncompressed_run_does_not_depend_on_seed():
    problem = make_problem("tiny", 13)
    params = params_exercising_switching(problem, "hard", None, 13)
    a = run(problem, params, np.random.default_rng(1))
    b = run(problem, params, np.random.default_rng(2))
    np.testing.assert_array_equal(a.w, b.w)


def test_trace_roundtrip():
    problem = make_problem("tiny", 14)
    params = params_exercising_switching(problem, "hard", 2, 14)
    tr = run(problem, params, np.random.default_rng(1))
    back = Trace.from_arrays(tr.arrays())
    for k, v in tr.arrays().items():
        np.testing.assert_array_equal(getattr(back, k), v)


# ---------------------------------------------------------------------------- (d) validation
BASE = dict(T=10, E=2, eta=0.1, eps=0.1)


@pytest.mark.parametrize("override, name", [
    ({"eta": 0.0}, "eta"), ({"eta": -0.1}, "eta"), ({"eta": float("nan")}, "eta"),
    ({"eta": float("inf")}, "eta"), ({"eps": 0.0}, "eps"), ({"eps": float("nan")}, "eps"),
    ({"E": 0}, "E"), ({"E": 2.0}, "E"), ({"E": True}, "E"), ({"T": 0}, "T"), ({"T": -5}, "T"),
    ({"T": 10.0}, "T"), ({"switching": "x"}, "switching"), ({"switching": "soft"}, "beta"),
    ({"switching": "soft", "beta": 0.0}, "beta"), ({"switching": "soft", "beta": float("nan")}, "beta"),
    ({"K": 0}, "K"), ({"K": -1}, "K"), ({"K": 2.5}, "K"), ({"K": True}, "K"),
    ({"w0": [0.0, float("nan")]}, "w0"), ({"w0": [[0.0]]}, "w0"),
])
def test_params_validation_names_parameter(override, name):
    with pytest.raises(ValueError, match=rf"^{name}="):
        FedSGMParams(**(BASE | override))
@pytest.mark.parametrize("override, name", [({"eta": "0.1"}, "eta"), ({"eps": "x"}, "eps"),
                                            ({"switching": "soft", "beta": "2"}, "beta")])
def test_params_non_numeric_names_parameter(override, name):
    with pytest.raises(ValueError, match=rf"^{name}="):
        FedSGMParams(**(BASE | override))


def test_params_valid_cases():
    FedSGMParams(**BASE)
    FedSGMParams(**(BASE | {"switching": "soft", "beta": 20.0, "K": 3, "T": np.int64(5)}))
    p = FedSGMParams(**(BASE | {"w0": [1.0, 2.0]}))
    assert p.w0.dtype == np.float64 and not p.w0.flags.writeable
    # hard switching ignores beta
    assert FedSGMParams(**(BASE | {"beta": None})).beta is None


def test_K_larger_than_d_raises_at_run_time():
    problem = make_problem("tiny", 0)          # d = 4
    params = FedSGMParams(**(BASE | {"K": problem.dim + 1}))
    with pytest.raises(ValueError, match=r"^K=5 .*d = 4"):
        run(problem, params, np.random.default_rng(0))
    run(problem, FedSGMParams(**(BASE | {"K": problem.dim})), np.random.default_rng(0))


def test_w0_wrong_dimension_raises_at_run_time():
    problem = make_problem("tiny", 0)
    with pytest.raises(ValueError, match=r"^w0="):
        run(problem, FedSGMParams(**(BASE | {"w0": np.zeros(problem.dim + 1)})), np.random.default_rng(0))


# ---------------------------------------------------------------------------- (e) switching weights
HARD_TABLE = [(-1.0, 0.0), (0.0, 0.0), (0.49, 0.0), (0.5, 0.0), (np.nextafter(0.5, 1), 1.0), (0.51, 1.0),
              (100.0, 1.0)]
# eps = 0.5, beta = 4: soft weight 0 for g <= 0.25, 1 + 4(g - 0.5) on (0.25, 0.5), 1 for g >= 0.5
SOFT_TABLE = [(-1.0, 0.0), (0.0, 0.0), (0.25, 0.0), (0.3125, 0.25), (0.375, 0.5), (0.4375, 0.75),
              (np.nextafter(0.5, 0), 1.0), (0.5, 1.0), (0.75, 1.0), (100.0, 1.0)]


@pytest.mark.parametrize("g, expected", HARD_TABLE)
def test_hard_switching_weight(g, expected):
    p = FedSGMParams(**(BASE | {"eps": 0.5}))
    assert float(p.switching_weight(g)) == expected
    assert switching_weight_reference(g, 0.5, "hard", None) == expected


@pytest.mark.parametrize("g, expected", SOFT_TABLE)
def test_soft_switching_weight(g, expected):
    p = FedSGMParams(**(BASE | {"eps": 0.5, "switching": "soft", "beta": 4.0}))
    assert float(p.switching_weight(g)) == pytest.approx(expected, abs=1e-15)
    assert switching_weight_reference(g, 0.5, "soft", 4.0) == pytest.approx(expected, abs=1e-15)


def test_switching_weight_vectorised():
    p = FedSGMParams(**(BASE | {"eps": 0.5, "switching": "soft", "beta": 4.0}))
    g = np.array([t[0] for t in SOFT_TABLE])
    np.testing.assert_allclose(p.switching_weight(g), [t[1] for t in SOFT_TABLE], atol=1e-15)
    h = FedSGMParams(**(BASE | {"eps": 0.5}))
    g = np.array([t[0] for t in HARD_TABLE])
    np.testing.assert_array_equal(h.switching_weight(g), [t[1] for t in HARD_TABLE])


def test_soft_tends_to_hard_as_beta_grows():
    g = np.linspace(-1, 2, 301)
    g = g[np.abs(g - 0.5) > 1e-3]
    hard = FedSGMParams(**(BASE | {"eps": 0.5})).switching_weight(g)
    soft = FedSGMParams(**(BASE | {"eps": 0.5, "switching": "soft", "beta": 1e6})).switching_weight(g)
    # soft >= hard always; equal away from the band (eps - 1/beta, eps)
    assert np.all(soft >= hard)
    np.testing.assert_array_equal(soft, hard)


def test_boundary_round_in_a_run():
    """g(w_0) = eps exactly: hard takes an f-step (sigma = 0), soft a g-step (sigma = 1)."""
    problem = PiecewiseLinear1D(a=[10.0], b=[0.0], G=1.0)     # f = |w - 10|, g = w
    common = dict(T=3, E=1, eta=0.25, eps=0.5, w0=[0.5])
    hard = run(problem, FedSGMParams(**common), np.random.default_rng(0))
    soft = run(problem, FedSGMParams(**common, switching="soft", beta=4.0), np.random.default_rng(0))
    assert hard.g[0] == 0.5 and hard.sigma[0] == 0.0 and hard.w[1, 0] == 0.75    # f-step towards 10
    assert soft.sigma[0] == 1.0 and soft.w[1, 0] == 0.25                          # g-step towards 0
    assert hard.sigma[1] == 1.0                                                   # g(w_1) = 0.75 > eps


# ---------------------------------------------------------------------------- (f) output
def fake_trace(g_rounds, g_final, w_rounds, w_final, sigma):
    T = len(g_rounds)
    w = np.vstack([w_rounds, w_final])
    z3 = np.zeros((T, 1, 1))
    return Trace(w=w, f=np.zeros(T + 1), g=np.append(g_rounds, g_final), sigma=np.asarray(sigma, float),
                 f_local=z3, g_local=z3, drift=z3, nu_sq=z3, X_sq=np.zeros((T, 1)),
                 X_mean=np.zeros((T, w.shape[1])), selected=np.zeros((T, 1, 0), dtype=np.int64),
                 uplink_bits=np.zeros(T))


G_ROUNDS = np.array([0.5, 0.375, 0.7, 0.2, 0.45])      # eps = 0.5, beta = 4
W_ROUNDS = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 4.0], [3.0, 8.0], [4.0, 16.0]])
W_FINAL = np.array([1e6, -1e6])                          # w_T must never be used


def test_output_hard():
    p = FedSGMParams(**(BASE | {"T": 5, "eps": 0.5}))
    out = output(fake_trace(G_ROUNDS, 0.0, W_ROUNDS, W_FINAL, p.switching_weight(G_ROUNDS)), p)
    np.testing.assert_array_equal(out.in_A, [True, True, False, True, True])     # g <= eps, g = eps in
    np.testing.assert_allclose(out.weights, [0.25, 0.25, 0.0, 0.25, 0.25])
    np.testing.assert_allclose(out.w_bar, W_ROUNDS[[0, 1, 3, 4]].mean(axis=0))
    assert out.size == 4


def test_output_soft():
    p = FedSGMParams(**(BASE | {"T": 5, "eps": 0.5, "switching": "soft", "beta": 4.0}))
    sigma = p.switching_weight(G_ROUNDS)
    np.testing.assert_allclose(sigma, [1.0, 0.5, 1.0, 0.0, 0.8])
    out = output(fake_trace(G_ROUNDS, 0.0, W_ROUNDS, W_FINAL, sigma), p)
    np.testing.assert_array_equal(out.in_A, [False, True, False, True, True])    # strict: g = eps out
    pi = np.array([0.0, 0.5, 0.0, 1.0, 0.2]) / 1.7                                 # 1 - sigma on A
    np.testing.assert_allclose(out.weights, pi, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(out.w_bar, pi @ W_ROUNDS, rtol=1e-12)
    assert out.size == 3


@pytest.mark.parametrize("switching", ["hard", "soft"])
def test_output_empty_A(switching):
    beta = 4.0 if switching == "soft" else None
    p = FedSGMParams(**(BASE | {"T": 3, "eps": 0.5, "switching": switching, "beta": beta}))
    g = np.array([0.6, 1.0, 0.51])
    out = output(fake_trace(g, -5.0, W_ROUNDS[:3], W_FINAL, p.switching_weight(g)), p)
    assert out.w_bar is None and out.size == 0
    np.testing.assert_array_equal(out.weights, 0.0)


def test_output_soft_empty_at_boundary_but_hard_not():
    g = np.array([0.5, 0.5])
    hard = FedSGMParams(**(BASE | {"T": 2, "eps": 0.5}))
    soft = FedSGMParams(**(BASE | {"T": 2, "eps": 0.5, "switching": "soft", "beta": 4.0}))
    assert output(fake_trace(g, 0.0, W_ROUNDS[:2], W_FINAL, hard.switching_weight(g)), hard).size == 2
    assert output(fake_trace(g, 0.0, W_ROUNDS[:2], W_FINAL, soft.switching_weight(g)), soft).w_bar is None


@pytest.mark.parametrize("switching", ["hard", "soft"])
def test_output_on_a_real_run(switching):
    problem = make_problem("tiny", 21)
    params = params_exercising_switching(problem, switching, 2, 21)
    tr = run(problem, params, np.random.default_rng(5))
    out = output(tr, params)
    assert isinstance(out, Output)
    members = [t for t in range(params.T)
               if (tr.g[t] <= params.eps if switching == "hard" else tr.g[t] < params.eps)]
    np.testing.assert_array_equal(np.flatnonzero(out.in_A), members)
    assert members, "the run should have good rounds"
    if switching == "hard":
        expected = sum(tr.w[t] for t in members) / len(members)
    else:
        wts = {t: 1.0 - switching_weight_reference(tr.g[t], params.eps, "soft", params.beta) for t in members}
        expected = sum(wts[t] * tr.w[t] for t in members) / sum(wts.values())
    np.testing.assert_allclose(out.w_bar, expected, rtol=1e-12, atol=1e-14)
    assert out.weights.sum() == pytest.approx(1.0)


# ---------------------------------------------------------------------------- (g) uplink bits
@pytest.mark.parametrize("K", [None, 1, 3, 4])
def test_uplink_bits(K):
    problem = make_problem("tiny", 0, n_clients=5)          # d = 4: ceil(log2 4) = 2 index bits
    params = FedSGMParams(**(BASE | {"K": K, "T": 7}))
    tr = run(problem, params, np.random.default_rng(0))
    per_client = 64 + (64 * 4 if K is None else K * (64 + 2))   # scalar g_j(w_t) + the message
    assert tr.uplink_bits.shape == (7,)
    np.testing.assert_array_equal(tr.uplink_bits, 5 * per_client)


def test_uplink_bits_figure1_setting():
    """d = 31, K = 9, n = 10: 10 * (64 + 9 * (64 + 5)) bits per round."""
    problem = TinyProblem(np.random.default_rng(0), 10, 31)
    tr = run(problem, FedSGMParams(**(BASE | {"K": 9, "T": 2})), np.random.default_rng(0))
    np.testing.assert_array_equal(tr.uplink_bits, 10 * (64 + 9 * 69))


# ---------------------------------------------------------------------------- vectorisation (static)
def test_no_python_loop_over_clients():
    """The only `for` statements of Algorithm 1's implementation iterate over range(T) and range(E);
    run() contains no comprehension or while loop (which could hide a loop over clients)."""
    import ast
    import inspect

    import repro.papers.fedsgm.algorithms.fedsgm as mod

    tree = ast.parse(inspect.getsource(mod))
    fors = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.AsyncFor))]
    assert sorted(ast.unparse(f.iter) for f in fors) == ["range(E)", "range(T)"]
    run_def = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "run")
    assert not [n for n in ast.walk(run_def) if isinstance(n, (ast.comprehension, ast.While))]
