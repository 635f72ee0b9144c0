# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # PC-FedAvg: what the paper claims, and what we checked
#
# *On Performance Guarantees for Federated Learning with Personalized Constraints* (Ebrahimi,
# Burbano, Yousefian; arXiv 2603.19617v1) studies
#
# $$\min_{x_1,\dots,x_m}\ f(x_1,\dots,x_m)=\frac1m\sum_{i=1}^m\Big(f_i(\bar x)+\frac{\sigma_i}2\lVert x_i-\bar x\rVert^2\Big)
# \quad\text{s.t.}\quad x_i\in X_i,\qquad \bar x=\frac1m\sum_{i=1}^m x_i, \tag{1}$$
#
# where every local loss is evaluated at the population average $\bar x$ and agent $i$'s personal
# variable enters only through the regulariser and its own constraint set $X_i$. The analysis works
# with the stacked vector $\mathbf x=[x_1;\dots;x_m]\in\mathbb R^{mn}$ and the penalised objective
# $G_\rho(\mathbf x)=f(\mathbf x)+\frac\rho m\sum_i h_i(x_i)$, $h_i=\frac12\mathrm{dist}(\cdot,X_i)^2$.
# Propositions 4.7-4.8 bound the penalised gap, the suboptimality and the per-agent infeasibility
# of the averaged iterate at a uniformly random iteration $K^*$; Theorem 3.4 turns them into
# communication complexities; Section 5 compares PC-FedAvg with penalised FedAvg, FedProx and
# SCAFFOLD on MNIST and CIFAR-10.
#
# This notebook follows the suite's reading of the paper: the algorithm
# and its compact form, the encoded claims (`bounds.pcfedavg`), the symbolic audit of the proofs,
# the communication-complexity bookkeeping, the checks on synthetic instances with exact constants,
# and the Section 5 experiments (cached results of `make reproduce`). Every number is printed by a
# code cell; `make notebooks` re-executes it.

# %%
import inspect

import numpy as np
import sympy as sp
from IPython.display import Image, Markdown, display
from sympy.parsing.sympy_parser import parse_expr

from bounds.pcfedavg import claims as B
from bounds.pcfedavg import findings as BF
from bounds.audit import fmt_point
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.constraints import Box, ProductSet
from repro.papers.pcfedavg import audit as XA
from repro.papers.pcfedavg import experiments as X
from repro.papers.pcfedavg import figures as XF
from repro.papers.pcfedavg import summaries as XS
from repro.papers.pcfedavg.runs import data as XD
from repro.papers.pcfedavg.runs import theory as XT
from repro.plotting import figures_root
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem, Quadratic
from repro import runner
from repro.registry import get, paper
from repro.audited import read as audited
from repro.report import experiment_results
from repro.verdicts import counts, verdict_table
from repro.tables import markdown_table

PROFILE = "quick"
FIG = figures_root() / "pcfedavg"


def esc(text) -> str:
    """Plain text for a Markdown cell: '*' as in '5*D*m' or 'x*' must not start emphasis."""
    return str(text).replace("*", r"\*")


# this notebook only reads cached results: a missing run is an error, never computed here
uncached = [s_ for name in XA.AUDIT_EXPERIMENTS for s_ in get(name).specs(PROFILE) if runner.load_cached(s_) is None]
if uncached:
    raise RuntimeError(f"{len(uncached)} {PROFILE} runs are not cached; run `python -m repro run` for "
                       f"{sorted({s_.experiment for s_ in uncached})} first")
results = experiment_results(XA.AUDIT_EXPERIMENTS, PROFILE)
for name, res in results.items():
    print(f"{name}: {len(res)} runs")
# the audit's verdicts (one per claim and statement) and findings on these results: read from the record
# `python -m repro audit` wrote for this code and these results, or computed (repro.audited)
verdicts, findings = audited("pcfedavg", results)

# %% [markdown]
# ## 1. Algorithm 1 and the compact update (CR)
#
# Agent $i$ holds a multi-block vector $\mathbf x_{i,k}=[x^{(1)}_{i,k};\dots;x^{(m)}_{i,k}]$ (its
# cross-estimates of every agent's variable); the server holds $\mathbf z_r$. Round $r$:
#
# * **line 3**: every agent receives every block, $x^{(j)}_{i,T_r}:=z^{(j)}_r$ for all $i,j$;
# * **lines 6-7**: $\hat x_{i,k}=\frac1m\sum_j x^{(j)}_{i,k}$ and $\tilde g_{i,k}=\nabla\tilde f_i(\hat x_{i,k},\xi_{i,k})$;
# * **line 8**, as printed:
#
# $$x^{(j)}_{i,k+1}=\begin{cases}
# x^{(i)}_{i,k}-\gamma\Big(\tfrac1m\tilde g_{i,k}+\rho\big(x^{(i)}_{i,k}-\Pi_{X_i}[x^{(i)}_{i,k}]\big)+\sigma_i\tfrac{m-1}m\big(x^{(i)}_{i,k}-\hat x_{i,k}\big)\Big), & j=i,\\[4pt]
# x^{(j)}_{i,k}-\gamma\Big(\tfrac1m\tilde g_{i,k}-\tfrac{\sigma_i}m\big(\mathbf{x^{(j)}_{i,k}}-\hat x_{i,k}\big)\Big), & j\neq i;
# \end{cases}$$
#
# * **line 10**: $z^{(j)}_{r+1}=\frac1m\sum_i x^{(j)}_{i,T_{r+1}}$ for every block $j$.
#
# The analysis (Section 4) instead differentiates the compact form
# $\mathbf x_{i,k+1}=\mathbf x_{i,k}-\gamma\nabla g_{i,\rho}(\mathbf x_{i,k},\xi_{i,k})$ (CR). Written out
# from the definitions, (CR) agrees with line 8 on the diagonal block but its off-diagonal blocks are
# $x^{(j)}_{i,k}-\gamma\big(\frac1m\tilde g_{i,k}-\frac{\sigma_i}m(\mathbf{x^{(i)}_{i,k}}-\hat x_{i,k})\big)$.
# So, on one step from the same state,
#
# $$\text{line 8}-\text{(CR)}=\frac{\gamma\sigma_i}m\big(x^{(j)}_{i,k}-x^{(i)}_{i,k}\big)\quad(j\ne i),\qquad 0\quad(j=i).$$
#
# The suite implements both (`repro.papers.pcfedavg.algorithms.pcfedavg`: `path="printed"` transcribes line 8,
# `path="compact"` evaluates $\nabla g_{i,\rho}$ through $A$, $B_i$, $\Pi_{X_i}$). On a tiny instance
# ($m=3$, $n=2$, boxes, exact gradients):

# %%
rng = np.random.default_rng(0)
m_t, n_t = 3, 2
tiny = PersonalizedProblem(
    Quadratic(P=np.stack([np.diag(rng.uniform(0.5, 2.0, n_t)) for _ in range(m_t)]), c=rng.normal(size=(m_t, n_t))),
    np.array([0.5, 1.0, 2.0]), ProductSet([Box(-np.ones(n_t), np.ones(n_t)) for _ in range(m_t)]))
gamma_t, rho_t = 0.1, 2.0
idx = np.arange(m_t)


def one_step_difference(Xs):
    """(line 8 as printed) - (CR) from the same state Xs = [replicate, agent i, block j, coordinate]."""
    g = tiny.local.gradients(Xs.mean(axis=-2))                       # line 7, exact gradient (nu = 0)
    printed = alg._line8_printed(tiny, Xs, g, rho_t, gamma_t)
    compact = Xs - gamma_t * tiny.local_gradients(Xs, g, rho_t)
    diff = printed - compact
    predicted = gamma_t * tiny.sigma[:, None, None] / m_t * (Xs - Xs[:, idx, idx, :][:, :, None, :])
    off = ~np.eye(m_t, dtype=bool)
    return [f"{np.abs(diff[:, idx, idx]).max():.3g}", f"{np.abs(diff[:, off]).max():.3g}",
            f"{np.abs(diff - predicted).max():.3g}"]


generic = rng.normal(size=(1, m_t, m_t, n_t))
after_line3 = np.broadcast_to(rng.normal(size=(1, 1, m_t, n_t)), (1, m_t, m_t, n_t)).copy()   # x_i = z for all i
display(Markdown(markdown_table(
    ["state", "max abs diff, diagonal blocks", "max abs diff, off-diagonal blocks",
     "max abs (diff - gamma sigma_i/m (x_i^(j) - x_i^(i)))"],
    [["random cross-estimates"] + one_step_difference(generic),
     ["right after line 3 (every agent holds z_r)"] + one_step_difference(after_line3)])))

# %% [markdown]
# Is the printed update a gradient step of some function at all? With $\tilde g=0$ and $\rho=0$ the
# $\sigma$-part of agent $i$'s step is a linear map $J$ of $\mathbf x_i$, and a linear map is a gradient
# field only if $J$ is symmetric; a nonzero $\lVert J-J^\top\rVert$ below means it is not one.

# %%
def sigma_jacobian(path, agent=0):
    J = np.zeros((m_t * n_t, m_t * n_t))
    for col in range(m_t * n_t):
        Xs = np.zeros((1, m_t, m_t, n_t))
        Xs[0, agent].flat[col] = 1.0
        zero = np.zeros((1, m_t, n_t))
        step = (Xs - alg._line8_printed(tiny, Xs, zero, 0.0, 1.0) if path == "printed"
                else tiny.local_gradients(Xs, zero, 0.0))
        J[:, col] = step[0, agent].ravel()
    return J


display(Markdown(markdown_table(["path", "||J - J^T|| (agent 1's sigma-part)"],
                                [[p, f"{np.linalg.norm(sigma_jacobian(p) - sigma_jacobian(p).T):.3g}"]
                                 for p in ("printed", "compact")])))

# %% [markdown]
# Consequence for the analysis: (L4.6-a), $\bar{\mathbf x}_{k+1}=\bar{\mathbf x}_k-\frac\gamma m\sum_i
# \nabla g_{i,\rho}(\mathbf x_{i,k},\xi_{i,k})$, holds on the (CR) path by construction and describes
# the printed algorithm only if the residual below is zero. The theory checks therefore run on the
# (CR) path; the theory grid contains printed-path sensitivity instance(s), and the Section 5
# experiments use the path shown here.

# %%
theory_runs = results["pcfedavg.theory"]
by_path = {p: [r for r in theory_runs if r.spec.config.get("path", "compact") == p] for p in ("compact", "printed")}
display(Markdown(markdown_table(
    ["path", "theory instances", "max_k ||xbar_(k+1) - (xbar_k - gamma (1/m) sum_i grad g_i)||"],
    [[p, len(rs), f"{max(float(r.arrays['cr_residual_max']) for r in rs):.3g}" if rs else "-"]
     for p, rs in by_path.items()])))
print("update path of the Section 5 runs:",
      sorted({r.spec.config["path"] for r in results["pcfedavg.comparison"] + results["pcfedavg.local_steps"]
              if r.spec.config.get("method", "pcfedavg") == "pcfedavg"}))

# %% [markdown]
# ## 2. The claims, as encoded
#
# Every numbered result is a `Claim`: symbols with domains, hypotheses, conclusion (observed
# left side $\le$ closed-form right side, or the expression inside $\mathcal O(\cdot)$), the **mode**
# in which the paper states it, and its provenance.

# %%
display(Markdown(markdown_table(["id", "where", "mode", "provenance"],
                                [[c.id, c.location, c.mode.value, c.provenance.value] for c in B.CLAIMS])))

# %% [markdown]
# Proposition 4.7 (penalised gap), Proposition 4.8 (ii) (per-agent infeasibility) and display (12)
# from the proof of 4.8 (ii), with their hypotheses ($Q=\mathbb E\lVert\bar{\mathbf x}_0-\mathbf x^*_\rho\rVert^2$,
# $D=\lVert\nabla f(\mathbf x^*)\rVert^2$; the step-size conditions are multiplied out):

# %%
for cid in ("pcfedavg.prop4.7", "pcfedavg.prop4.8.ii", "pcfedavg.eq12"):
    c = B.claim(cid)
    # conclusion, then hypotheses on a second line; hypotheses that sympy already decides from the
    # symbols' assumptions (H >= 1, rho > 0) print as "True" and are dropped here
    body = (c.latex().replace(r";\quad", r" \\ &").replace(r"\text{True},\ ", "")
            .replace(r",\ \text{True}", ""))
    observed = sorted(str(x) for x in sp.Tuple(*c.conclusion).free_symbols if str(x) in B.OBSERVED)
    display(Markdown(f"**{c.id}** ({c.location}):\n\n$$\\begin{{aligned}}&{body}\\end{{aligned}}$$\n\n"
                     + "; ".join(f"`{o}`: `{B.OBSERVED[o]}`" for o in observed)))

# %% [markdown]
# ## 3. Symbolic audit of the proofs
#
# Every labelled step of Lemmas 4.3-4.6, Propositions 4.7-4.8 and Theorem 3.4 is re-derived from
# its stated inputs and classified as an identity, a valid inequality, or **not implied** (with a
# counterexample when one was found).

# %%
steps = BF.proof_steps()
statuses = sorted({s["status"] for s in steps})
print(fmt_point({s: sum(x["status"] == s for x in steps) for s in statuses}))
display(Markdown(markdown_table(
    ["claim", "step", "status", "method"],
    [[s["claim"], esc(s["step"]), f"**{s['status']}**" if s["status"] == "not implied" else s["status"],
      esc(s["method"])]
     for s in steps])))

# %% [markdown]
# The steps that do not follow, with the evidence:

# %%
display(Markdown(markdown_table(["claim", "step", "evidence", "counterexample"],
                                [[s["claim"], esc(s["step"]), esc(s["evidence"]), esc(fmt_point(s["counterexample"] or {}))]
                                 for s in steps if s["status"] == "not implied"])))

# %% [markdown]
# The audit findings (statement vs proof, hypotheses, stated rates). A **discrepancy** is a
# relation the paper states that its own argument does not establish, or a hypothesis that its
# proof or its use does not respect; it is not by itself a false theorem -- that is for the
# empirical checks of part 5 below.

# %%
print(fmt_point({v: sum(f.verdict == v for f in findings) for v in sorted({f.verdict for f in findings})}))
display(Markdown(markdown_table(["id", "kind", "verdict", "method", "summary"],
                                [[f.id, f.kind, f.verdict, f.method, esc(f.summary)] for f in findings])))

# %% [markdown]
# Finding `pcfedavg.e.lemma4.5.M` rests on an exact instance ($m=2$, $n=1$, $f_i(y)=(y-c_i)^2/2$,
# $X_i$ intervals, $\nu=0$), solved in rational arithmetic by enumerating active patterns. (L4.5-d)
# needs $\frac1m\sum_i\lVert\nabla G_{i,\rho}(\mathbf x^*_\rho)\rVert^2\le M$, where $M$ is evaluated at
# $\mathbf x^*$ and without the penalty:

# %%
inst = BF.interval_instance()
display(Markdown(markdown_table(["quantity", "exact value"],
                                [["instance", fmt_point(BF.LEMMA45_M_INSTANCE)], ["x*", inst["x_star"]],
                                 ["x*_rho", inst["x_star_rho"]], ["M", inst["M"]],
                                 ["(1/m) sum_i ||grad G_(i,rho)(x*_rho)||^2", inst["mean_sq_grad_G_at_x_star_rho"]],
                                 ["grad G_rho(x*_rho) (should be 0)", inst["grad_G_rho_at_x_star_rho"]]])))

# %% [markdown]
# ## 4. Communication complexity: derived vs printed
#
# Theorem 3.4's proof substitutes $K=RH$, $\rho=\sqrt R$ and $\gamma=1/\sqrt R$ into Proposition 4.8
# and reads off $R=\mathcal O(\cdot)$. The suite repeats this term by term: each monomial $cR^{-p}$ of
# the bound must be at most $\epsilon/N$, giving $R\ge(Nc/\epsilon)^{1/p}$; constants are dropped,
# $(H-1)\le H$ and $L_f+\sigma(m-1)\le L$. A derived term is compared with the printed $\mathcal O$-terms
# (`match`, `dominated` for $H\ge1,m\ge2$, `dominated (AM-GM)` by a weighted geometric mean of printed
# terms, or `not covered`). Whether the proof's $\gamma=1/\sqrt R$ satisfies the theorem's own
# step-size hypothesis is finding `pcfedavg.a.thm3.4.stepsize`; the table is also computed for the
# largest admissible step, $\gamma=\min\{1/(6L_{G_\rho}),1/(5L_{G_\rho}(H-1))\}$.

# %%
fa = next(f for f in findings if f.id == "pcfedavg.a.thm3.4.stepsize")
display(Markdown(f"Finding `{fa.id}`: **{fa.verdict}** -- {esc(fa.summary)}"))
SYMS = {s: sp.Symbol(s) for s in ("Q", "D", "M", "L", "H", "m", "nu", "epsilon")}


def tex(expr_str):
    if expr_str is None:
        return "-"
    try:
        return f"${sp.latex(parse_expr(expr_str, local_dict=SYMS))}$"
    except Exception:            # e.g. AM-GM products written with ^theta
        return f"`{expr_str}`"


for admissible, title in ((False, "proof's choices: $K=RH$, $\\rho=\\sqrt R$, $\\gamma=1/\\sqrt R$"),
                          (True, "admissible step: $\\gamma=\\min\\{1/(6L_{G_\\rho}),1/(5L_{G_\\rho}(H-1))\\}$, "
                                 "$\\rho=\\sqrt R$")):
    table = BF.complexity_table(admissible=admissible)
    display(Markdown(f"**{title}**"))
    display(Markdown(markdown_table(["part", "derived term", "printed term", "status"],
                                    [[r["part"], tex(r["derived_term"]), tex(r["printed_term"]), r["status"]]
                                     for r in table])))
    for part in ("i", "ii", "iii"):
        part_rows = [r for r in table if r["part"] == part]
        bad = [r for r in part_rows if r["status"] in ("not covered", "printed term without derived counterpart")]
        print(f"part ({part}): {len(part_rows)} rows, {len(bad)} not covered by / missing from the printed O(.)")

# %% [markdown]
# Remark 3.5 is about the leading power of $1/\epsilon$ only: $\mathcal O(\epsilon^{-2})$ for
# suboptimality (parts i, iii) and $\mathcal O(\epsilon^{-1})$ for infeasibility (part ii). The powers
# below come from the tables above (derived) and from the printed Theorem 3.4:

# %%
lp = {adm: BF.leading_eps_powers(admissible=adm) for adm in (False, True)}
display(Markdown(markdown_table(["part", "printed", "derived (proof's choices)", "derived (admissible step)"],
                                [[p, str(lp[False][p]["printed"]), str(lp[False][p]["derived"]),
                                  str(lp[True][p]["derived"])] for p in ("i", "ii", "iii")])))

# %% [markdown]
# Remark 3.6 says $\rho=\sqrt R$ balances feasibility against suboptimality. With $\rho=R^a$
# ($\gamma=1/\sqrt R$, $K=RH$) each part's bound decays like $R^{-p(a)}$; $\epsilon$-power $=1/p$:

# %%
r36 = BF.remark36_exponents()
display(Markdown(markdown_table(["part", "p(a)", "p(1/2)", "eps power at a = 1/2"],
                                [[p, f"${sp.latex(v['decay'])}$", f"${sp.latex(v['decay_at_half'])}$",
                                  f"${sp.latex(v['eps_power_at_half'])}$"] for p, v in r36.items()])))
f36 = next(f for f in findings if f.id == "pcfedavg.remark3.6")
display(Markdown(f"Finding `{f36.id}`: **{f36.verdict}** -- {esc(f36.summary)}"))

# %% [markdown]
# ## 5. Empirical checks on synthetic instances
#
# `pcfedavg.theory` runs Algorithm 1 ((CR) path unless stated) on a grid of quadratic and logistic
# instances with box, $\ell_2$-ball, $\ell_1$-ball and mixed sets, the admissible step size, and
# $S$ Monte-Carlo replicates; $\mathbf x^*$, $\mathbf x^*_\rho$ and $D,Q,M$ are solver-certified.
# Expectations are replicate means, and the expectation over $K^*$ is the exact average over $k$. A
# bound is **violated** when the mean excess exceeds zero by more than the threshold number of
# standard errors (this project's rule, Bonferroni-raised for per-iteration lemmas), **inconclusive**
# when it is positive within that margin.

# %%
rows = XA._claim_rows(theory_runs, verdicts)
display(Markdown(markdown_table(["claim", "mode", "instances (CR path)", "verdict", "why (all evidence)",
                                 "worst observed/bound (CR path)", "printed line-8 path"],
                                [[esc(x) for x in row] for row in rows])))
compact_runs = by_path["compact"]
n_fail = sum(int(np.sum(~r.arrays["passed"].astype(bool))) for r in compact_runs)
n_inc = sum(int(np.sum(r.arrays["inconclusive"].astype(bool))) for r in compact_runs)
n_chk = sum(r.arrays["passed"].size for r in compact_runs)
print(f"(CR) path: {n_chk} checks on {len(compact_runs)} instances: {n_fail} violated, {n_inc} inconclusive")
symbolic_only = [row[0] for row in rows if row[2] == "none"]
print("no run-level check (symbolic evidence only):", ", ".join(symbolic_only) or "none")

# %% [markdown]
# How to read the ratio plot: one dot per instance, the worst observed/bound over iterations and
# agents. A non-positive ratio (e.g. a negative $\mathbb E[f(\bar{\mathbf x}_{K^*})-f(\mathbf x^*)]$
# against the upper bound of 4.8 (i)) cannot be drawn on the log axis: the tick label counts them
# ("(n <= 0)") instead. Lemma 4.6's two sides both contain $\mathbb E\lVert\bar{\mathbf x}_k-\mathbf x^*_\rho\rVert^2$,
# so its ratio is close to 1 whenever that term dominates, whatever the slack: for Lemma 4.6 the
# plot says nothing about tightness.

# %%
display(Image(filename=str(FIG / "theory_ratio.png")))
floor_rows = []
for cid in XF.THEORY_CLAIMS:
    worst = [float(np.nanmax(r.arrays["ratio"][r.arrays["claim_id"] == cid]))
             for r in theory_runs if np.any((r.arrays["claim_id"] == cid) & np.isfinite(r.arrays["ratio"]))]
    floor_rows.append([cid, len(worst), sum(w <= 1e-6 for w in worst), sum(w <= 0 for w in worst)])
display(Markdown(markdown_table(["claim", "instances with a finite ratio", "ratio <= 1e-6",
                                 "ratio <= 0 (not drawn; counted in the tick label)"], floor_rows)))
kstar = [r.meta["metadata"]["literal_kstar"]["agree"] for r in theory_runs if "literal_kstar" in r.meta["metadata"]]
print(f"literal K* draw vs exact average over k (suboptimality): agree within the SE rule on {sum(kstar)} "
      f"of {len(kstar)} instances")

# %% [markdown]
# ### Lemma 4.5's proof uses $M$ where it needs $M_\rho$
#
# (L4.5-d) bounds $\frac1m\sum_i\lVert\nabla G_{i,\rho}(\mathbf x^*_\rho)\rVert^2+\nu^2/m$ (written
# $M_\rho$ here) by $M$, which is evaluated at $\mathbf x^*$ without the penalty. On the grid:

# %%
M_, M_rho = (np.array([float(r.arrays[k]) for r in theory_runs]) for k in ("M", "M_rho"))
lemma45 = next(row for row in rows if row[0] == "pcfedavg.lemma4.5")
tie = XA.RATIO_TIE     # where x*_rho = x* the two solves agree to ~1e-16: a tie, not M_rho > M
print(f"M_rho > M (1 + tol) + tol on {int(np.sum(M_rho > M_ * (1 + tie) + tie))} of {M_.size} instances, equal to "
      f"the tolerance on {int(np.sum(np.abs(M_rho - M_) <= M_ * tie + tie))}; max M_rho/M = {(M_rho / M_).max():.4g}")
print(f"Lemma 4.5 as stated, on the (CR) path: {lemma45[3]} (worst observed/bound {lemma45[4]})")

# %% [markdown]
# ### Rate sweep (Theorem 3.4, Remark 3.5)
#
# One fixed instance (`RATE_INSTANCE`), $\rho=\sqrt R$, $R$ on a geometric grid, with the admissible
# step size and with the proof's $\gamma=1/\sqrt R$ (column "hypotheses met": whether the runs
# satisfy the step-size hypothesis). Fitted log-log
# slopes of $|\mathbb E[f(\bar{\mathbf x}_{K^*})-f(\mathbf x^*)]|$ and $\max_i\mathbb E[\bar d_i^2]$; Theorem 3.4
# corresponds to slopes $-1/2$ and $-1$. A slope on a finite grid is not a limit.

# %%
fits = XS.rate_fits(results["pcfedavg.rates"])
printed_slope = {"subopt": -0.5, "infeas": -1.0}
rate_rows = []
for rule, fit in fits.items():
    for q in ("subopt", "infeas"):
        lo, hi = fit[q]["ci"]
        met = fit["hypothesis_met"]
        rate_rows.append([rule, q, f"{fit[q]['slope']:.3g} [{lo:.3g}, {hi:.3g}]", printed_slope[q],
                          "yes" if lo <= printed_slope[q] <= hi else "no", ", ".join(map(str, fit[q]["signs"])),
                          "all" if all(met) else "none" if not any(met) else "some"])
display(Markdown(markdown_table(["step size", "quantity", "fitted slope [95% CI]", "Theorem 3.4",
                                 "printed slope in CI", "sign of the mean per R", "hypotheses met"], rate_rows)))
print("R grid:", fits["admissible"]["R"])
display(Image(filename=str(FIG / "rates.png")))

# %% [markdown]
# ### Proposition 4.8 (ii) on an instance that satisfies every hypothesis
#
# Finding `pcfedavg.b.prop4.8.ii.terms` compares each printed term of 4.8 (ii) with what the
# proof's route ((12) squared) gives; the first printed term is $5mD/\rho^2$, the route's is
# $5m^2D/\rho^2$. The targeted family (`one_active_instance`) puts all of $\nabla f(\mathbf x^*)$ on one
# agent's block: $n=1$, identical $f_i(y)=(y-c)^2/2$, an interval $X_1$ that cuts off $c$,
# $X_i=\mathbb R$ for $i\ge2$, $H=1$, $\nu=0$ (deterministic, so the expectation is exact),
# $\gamma=1/(6L_{G_\rho})$, start at $\mathbf x^*$ (parameters printed below). As $K\to\infty$,
# $\mathbb E_{K^*}\bar d_1^2\to\mathrm{dist}(B_1\mathbf x^*_\rho,X_1)^2$, while the bound tends to its only
# $K$-free term $5mD/\rho^2$.

# %%
adv = results["pcfedavg.adversarial"]
one = sorted(XS.one_active_runs(adv), key=lambda r: (r.spec.config["K"], r.spec.config["m"]))
print("parameters (rho, sigma_i, c):", sorted({(r.spec.config["rho"], r.spec.config["sigma"], r.spec.config["target"])
                                             for r in one}))
print("sets (m = 2):", "; ".join(fmt_point(s) for s in XT.one_active_instance(2)[0].sets.describe()))


def k_free_ratio(r):
    """dist(x*_rho block 1, X_1)^2 over the bound's K-free term 5 m D / rho^2 (H = 1, nu = 0)."""
    return float(r.arrays["dist_rho_sq"].max() / XS.k_free_term(r))


one_rows = [[r.spec.config["m"], r.spec.config["K"], f"{float(r.arrays['infeas'].max()):.4g}",
             f"{float(r.arrays['bound']):.4g}", f"{float(r.arrays['ratio']):.4g}",
             f"{float(r.arrays['dist_rho_sq'].max()):.4g}", f"{k_free_ratio(r):.4g}",
             bool(r.arrays["hypotheses_met"])] for r in one]
display(Markdown(markdown_table(["m", "K", "E_K* d_1^2", "Prop 4.8(ii) bound", "ratio", "dist(x*_rho)^2",
                                 "K->oo ratio: dist(x*_rho)^2 / (5 m D/rho^2)", "hypotheses met"], one_rows)))
over = [r for r in one if float(r.arrays["ratio"]) > 1 and bool(r.arrays["hypotheses_met"])]
display(Markdown(
    f"Prop. 4.8 (ii) is exceeded, with every hypothesis met, at {len(over)} of {len(one)} (m, K) points"
    + (": " + ", ".join(f"m = {r.spec.config['m']}, K = {r.spec.config['K']}" for r in over) + "."
       if over else ".")))
v48 = next(v for v in verdicts if v.claim == "pcfedavg.prop4.8.ii")
display(Markdown(f"Verdict of `pcfedavg.prop4.8.ii` (all evidence): **{v48.verdict.value}** -- {esc(v48.reason)}"))
display(Image(filename=str(FIG / "prop48ii_one_active.png")))

# %% [markdown]
# The seeded random search over instance configurations (`pcfedavg.adversarial`) records the
# largest observed/bound it found per claim and any failed check:

# %%
for r in [r for r in adv if r.spec.config.get("search") != "one_active"]:
    best = r.meta["metadata"]["best"]
    print(f"{r.spec.config['budget']} random instances, failed checks: {int(r.arrays['n_failures'])}")
    display(Markdown(markdown_table(["claim", "largest observed/bound", "config"],
                                    [[cid, f"{b['ratio']:.4g}", esc(fmt_point(b["config"]))] for cid, b in best.items()])))

# %% [markdown]
# ## 6. Section 5: the experiments
#
# Softmax regression over 4 agents with $\ell_1$-ball budgets $X_i=\{\mathbf W:\lVert\mathbf W\rVert_1\le\tau_i\}$,
# the hyperparameters of Section 5, and the defaults of part 7 below for what the paper leaves
# open. Only the captions of Figures 1-4 survive in the paper's text, so the axes are this project's
# defaults (choices the paper leaves open): infeasibility $\frac1m\sum_i\mathrm{dist}(V_i,X_i)$
# (PC-FedAvg: $V_i=z^{(i)}_r$, agent $i$'s block of the server vector; baselines: the global model for
# every $i$) and global loss $\frac1m\sum_if_i(\bar{\mathbf W})$, once per round after aggregation.

# %%
comparison, local_steps = results["pcfedavg.comparison"], results["pcfedavg.local_steps"]
for k in range(1, 5):
    display(Image(filename=str(FIG / f"figure{k}.png")))

# %% [markdown]
# Section 5's words "comparable global objective values", "consistently outperforms the baselines" (in
# infeasibility) and "our iterates remain feasible throughout":

# %%
data_rows, feasibility_rows = XA._data_summary(comparison, local_steps)
display(Markdown(markdown_table(["data", "method", "seeds", "final global loss", "final infeasibility",
                                 "max infeasibility", "first infeasible round per seed"], data_rows)))
display(Markdown(markdown_table(["data", "rounds where PC-FedAvg's infeasibility <= best baseline's",
                                 "max server-block infeasibility", "max own-block distance over all local iterations",
                                 "rounds with infeasible server blocks"], feasibility_rows)))

# %% [markdown]
# Section 5: "increasing the number of local updates improves the performance" (Figure 4):

# %%
ls_rows = XA._local_steps_rows(local_steps)
display(Markdown(markdown_table(["data", "final global loss by local steps", "final infeasibility",
                                 "loss decreasing in H"], ls_rows)))

# %% [markdown]
# **Settings vs the theory.** Section 5 fixes $\gamma$ and an increasing penalty
# $\rho_r=(r+10^4)^{1/4}$; Propositions 4.7-4.8 need $\gamma\le\min\{1/(6L_{G_\rho}),1/(5L_{G_\rho}(H-1))\}$
# with a constant $\rho$. $L_f$ is the certified bound on the softmax loss's smoothness for the data
# as preprocessed here.

# %%
settings = XA._settings(comparison) + XA._schedule_findings(comparison)
display(Markdown(markdown_table(["id", "verdict", "summary", "evidence"],
                                [[f.id, f.verdict, esc(f.summary), esc(f.evidence)] for f in settings])))

# %% [markdown]
# **The paper's descriptions of the method vs Algorithm 1.**
#
# * Section 5: "agents start each round from different model states" and "the server updates only
#   the blocks corresponding to each agent rather than fully averaging all blocks". Lines 3 and 10
#   of Algorithm 1, as the suite implements them, send every block to every agent and average every
#   block over all agents, so all agents start round $r$ from the same vector $\mathbf z_r$ (the proof
#   of Lemma 4.5 uses exactly this, "$\mathbf x_{T_r}=\mathbf x_{i,T_r}$ for all $i$"):

# %%
for one_round in (alg._dense_round, alg._factored_round):     # the data runs' rounds keep the blocks factored
    print(one_round.__name__ + ":")
    print("\n".join("    " + line.strip() for line in inspect.getsource(one_round).splitlines()
                    if "# line 3" in line or "# line 10" in line))
for part in (alg._FactoredVectors.__init__, alg._FactoredVectors.server_average):   # their line 3 and line 10
    print(inspect.getsource(part))

# %% [markdown]
# * Conclusion: "enforces local feasibility at every iteration"; Section 5: "our iterates remain
#   feasible throughout". Algorithm 1 never projects the iterate: line 8 penalises
#   $\mathrm{dist}(x^{(i)}_i,X_i)^2$ with a finite $\rho$, so an agent's own block stays in $X_i$ only
#   where its constraint happens not to pull. On the one-active instance ($m=4$, $\rho=10$,
#   admissible $\gamma$, printed path, 20 rounds of 5 steps) started at the solution $\mathbf x^*$ of
#   (1) -- feasible, so line 1 of Algorithm 1 is met -- agent 1's own block $x^{(1)}_{1,k}$ at every
#   local iteration:

# %%
demo, z0_demo = XT.one_active_instance(4)
z0_demo = demo.solve(10.0, z0_demo).x_star
print("dist(z_0 blocks, X_i):", demo.sets.distance(z0_demo))
demo_params = alg.PCFedAvgParams(gamma=demo.gamma_max(10.0, 5), rounds=20, local_steps=5, x0=z0_demo, rho=10.0,
                                 path="printed", record="metrics")
own_dist = alg.run(demo, demo_params, np.random.default_rng(0)).records["own_block_dist"][:, 0]
outside = np.flatnonzero(own_dist > 0)
display(Markdown(
    f"max over {own_dist.size} local iterations of dist(x_1^(1), X_1) = {own_dist.max():.4g}; "
    + (f"the own block is first outside X_1 after local step {int(outside[0]) + 1} and is outside after "
       f"{outside.size} of {own_dist.size} local steps." if outside.size else "the own block never leaves X_1.")))

# %% [markdown]
# On the data sets, the feasibility table above reports the same quantity for PC-FedAvg at every local
# iteration (column "max own-block distance over all local iterations") next to the server blocks.

# %% [markdown]
# ## 7. What could not be checked, and the choices made
#
# **Section 5 choices the paper leaves open** (`repro.papers.pcfedavg.runs.data`, every one a
# config key recorded with each result):

# %%
def rst_table(doc):
    """The first RST simple table (two columns, no header) of a docstring, as Markdown rows."""
    lines = doc.splitlines()
    seps = [i for i, line in enumerate(lines) if line.strip() and set(line.strip()) <= {"=", " "}]
    col = lines[seps[0]].index(" =") + 1
    while lines[seps[0]][col] == " ":
        col += 1
    out = []
    for line in lines[seps[0] + 1:seps[1]]:
        if line[:col].strip():
            out.append([line[:col].strip(), line[col:].strip()])
        elif out:
            out[-1][1] += " " + line.strip()
    return out


display(Markdown(markdown_table(["item", "default"], rst_table(XD.__doc__))))
print("Section 5 hyperparameters as stated:", fmt_point(XD.HYPER, sep="; "))
print("defaults:", fmt_point(XD.DEFAULTS))

# %% [markdown]
# **Synthetic instances** (`repro.papers.pcfedavg.runs.theory`):

# %%
display(Markdown("Choices the paper leaves open" + XT.__doc__.split("Choices the paper leaves open", 1)[1]))

# %% [markdown]
# **$K^*$.** Propositions 4.7-4.8 are about the iterate at a uniform random $K^*$. Since $K^*$ is
# independent of the samples, the suite uses the exact identity
# $\mathbb E_{K^*}[\phi(\bar{\mathbf x}_{K^*})]=\frac1K\sum_{k<K}\phi(\bar{\mathbf x}_k)$ per replicate, and
# records the literal procedure (one draw of $K^*$ per replicate) as a cross-check (agreement count
# in part 5 above). The proof of 4.7 also needs $K=T_r$ for some $r$, which the suite's $T_r=rH$
# guarantees (finding `pcfedavg.prop4.7.K_eq_Tr`). The Section 5 experiments plot per-round curves
# and do not use $K^*$.
#
# **Profile.** This notebook shows the `quick` profile; the `paper` profile runs the larger grids
# and seed counts (this project's choices; the paper states no seed count):

# %%
prof_rows = [
    ["theory grid: m, H, nu", *[f"{XT.THEORY_GRID[p]['m']}, {XT.THEORY_GRID[p]['H']}, {XT.THEORY_GRID[p]['nu']}"
                                for p in ("quick", "paper")]],
    ["theory: R, replicates S, n", *[f"{XT.THEORY_GRID[p]['R']}, {XT.THEORY_GRID[p]['S']}, {XT.THEORY_GRID[p]['n']}"
                                     for p in ("quick", "paper")]],
    ["rate sweep: R grid, replicates", *[f"{XT.RATE_GRID[p]}, {XT.RATE_S[p]}" for p in ("quick", "paper")]],
    ["random search budget", *[XT.ADV_BUDGET[p] for p in ("quick", "paper")]],
    ["one-active family: m, K", *[f"{XT.ONE_ACTIVE[p]['m']}, {XT.ONE_ACTIVE[p]['K']}" for p in ("quick", "paper")]],
    ["Figures 1-3: seeds per method and data set",
     *[len({sp_.seed for sp_ in get("pcfedavg.comparison").specs(p)}) for p in ("quick", "paper")]],
    ["Figure 4: seeds per local-step value and data set",
     *[len({sp_.seed for sp_ in get("pcfedavg.local_steps").specs(p)}) for p in ("quick", "paper")]],
]
display(Markdown(markdown_table(["item", "quick", "paper"], prof_rows)))
print("profile shown here:", PROFILE)

# %% [markdown]
# **Not checked here.** The experiments the suite runs for this paper:

# %%
display(Markdown(markdown_table(["experiment", "what it checks"], [[e.name, e.description] for e in X.EXPERIMENTS])))

# %% [markdown]
#
# * Theorem 3.4 and Remarks 3.5-3.6 are order-of-magnitude statements: the suite checks them by
#   exponent bookkeeping (part 4) and finite-$R$ slopes on one instance; it has no sweep over
#   $m,H,D,Q,M,\nu$ at a fixed target $\epsilon$, no $\rho$-sweep for Remark 3.6's trade-off, and no run
#   with all $X_i=\mathbb R^n$ for Remark 3.5's comparison with unconstrained FedAvg.
# * The $\mathcal O(\cdot)$ is read as hiding absolute constants only; the paper does not say.
# * Figures 1-4 survive only as captions, so the regenerated curves cannot be compared with the
#   paper's values; only Section 5's worded claims are checked, against the metrics chosen above.
# * The results depend on the Section 5 defaults listed above (partition, preprocessing, the
#   baselines' penalty and SCAFFOLD variant), none of which the paper states.

# %% [markdown]
# ## 8. Verdicts
#
# One verdict per encoded claim and per statement of Section 5 about Figures 1-4 (`XA.STATEMENTS`), computed by `repro.verdicts.roll_up` from all of the claim's evidence (the
# per-run checks, the adversarial instances, the re-derived proof steps and the symbolic findings above;
# `repro.papers.pcfedavg.audit.claim_evidence`) and from the claims each proof uses (`DEPENDS_ON`). It is the
# same object the audit report shows.

# %%
print(", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n))
display(Markdown(markdown_table(["claim", "location", "verdict", "reason"],
                                [[esc(x) for x in row]
                                 for row in verdict_table(verdicts, paper("pcfedavg").locations())])))
