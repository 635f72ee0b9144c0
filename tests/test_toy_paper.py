"""Adding a paper touches no shared file: a minimal paper package written into a temporary directory (one claim,
one problem, one algorithm, one experiment, one figure, and a mathematics package ``bounds/toy`` of the same shape as
the real papers': claims, proof inventory, encoded steps, findings) is listed, run, drawn and audited by the command
line, found only through ``REPRO_PAPERS_PATH`` and its interface ``PAPER``, and its runs' cache keys cover its own
code (and not its comments).

The toy paper is gradient descent on f(x) = L x^2 / 2 with the textbook claim f(x_T) <= (1 - eta L)^(2T) f(x_0)
for 0 < eta L <= 1. It follows the contracts of ``docs/architecture.md``: ``run(problem, params, rng) -> Trace``
with the initial point in ``params``, one ``check(claim, problem, trace) -> list[Outcome]`` called through
``repro.verify.check_claims``, a frozen config dataclass that ``--set`` is validated against, and runs that import
neither plotting nor the report.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TOY = {
    "bounds/toy/__init__.py": '"""The toy paper\'s mathematics: claims, proof inventory, encoded steps, findings."""\n',
    "bounds/toy/claims.py": '''
        import sympy as sp

        from bounds.core import Claim, Mode

        f_T, f_0, eta, L, T = sp.symbols("f_T f_0 eta L T")
        CONTRACTION = Claim(
            id="toy.contraction", location="Theorem 1", mode=Mode.DETERMINISTIC,
            statement="f(x_T) <= (1 - eta L)^(2T) f(x_0) for 0 < eta L <= 1.",
            domains={f_T: "observed", f_0: "real >= 0", eta: "real > 0", L: "real > 0", T: "integer >= 0"},
            hypotheses=(sp.Le(eta * L, 1),), conclusion=(sp.Le(f_T, (1 - eta * L) ** (2 * T) * f_0),))
        CLAIMS = (CONTRACTION,)
        ''',
    "bounds/toy/proofs.py": '''
        from bounds.proofs import Display

        PROOFS = ("Proof of Theorem 1",)
        DISPLAYS = (
            Display(PROOFS[0], "(1)", "x_{t+1} = (1 - eta L) x_t"),
            Display(PROOFS[0], "(2)", "f(x_{t+1}) = (1 - eta L)^2 f(x_t)", ("toy.contraction",)),
        )
        ''',
    "bounds/toy/steps.py": '''
        import sympy as sp

        from bounds.steps import Step

        x, eta, L = sp.symbols("x eta L")
        STEPS = (Step("Proof of Theorem 1", "(1)", "toy.contraction", lhs=x - eta * L * x, relation="==",
                      rhs=(1 - eta * L) * x, space={x: (-1.0, 1.0), eta: (0.0, 1.0), L: (0.0, 1.0)}),)
        ''',
    "bounds/toy/findings.py": '''
        import sympy as sp

        from .claims import CONTRACTION, L, eta


        def rate_at_the_largest_step():
            """What Theorem 1 gives at eta = 1/L, the largest step it admits: the rate (1 - eta L)^2 is 0."""
            return sp.simplify(((1 - eta * L) ** 2).subs(eta, 1 / L)), CONTRACTION.id
        ''',
    "toy/__init__.py": '"""Toy paper: gradient descent on a one-dimensional quadratic."""\n',
    "toy/problems/__init__.py": "",
    "toy/problems/quadratic.py": '''
        from dataclasses import dataclass

        @dataclass(frozen=True)
        class Quadratic:
            L: float

            def value(self, x):
                return 0.5 * self.L * x * x

            def grad(self, x):
                return self.L * x
        ''',
    "toy/algorithms/__init__.py": "",
    "toy/algorithms/gd.py": '''
        from dataclasses import dataclass

        import numpy as np

        @dataclass(frozen=True)
        class Trace:
            values: np.ndarray
            eta: float

        def run(problem, params, rng) -> Trace:
            x, values = float(params.x0), []
            for _ in range(int(params.T) + 1):
                values.append(problem.value(x))
                x -= params.eta * problem.grad(x)
            return Trace(np.array(values), float(params.eta))
        ''',
    "toy/checks.py": '''
        import numpy as np

        from repro.verify import check_relation

        def check(claim, problem, trace):
            values = {"f_T": trace.values, "f_0": trace.values[0], "T": np.arange(trace.values.size),
                      "eta": trace.eta, "L": problem.L}
            return [check_relation(claim, rel, values, tol=1e-12) for rel in claim.relations]
        ''',
    "toy/runs/__init__.py": "",
    "toy/runs/gd.py": '''
        from dataclasses import dataclass

        import numpy as np

        from repro.errors import require
        from repro.experiment import Config
        from repro.runner import RunSpec
        from repro.verify import check_claims, outcome_arrays

        from bounds.toy.claims import CLAIMS

        from ..algorithms import gd
        from ..checks import check
        from ..problems.quadratic import Quadratic

        @dataclass(frozen=True)
        class GDConfig(Config):
            L: float
            eta: float
            T: int
            x0: float = 1.0

            def __post_init__(self):
                require(self.L > 0, "L", self.L, "L > 0")
                require(0 < self.eta <= 1 / self.L, "eta", self.eta, "0 < eta <= 1/L")
                require(self.T >= 0, "T", self.T, "T >= 0")

        def specs(profile):
            return [RunSpec("toy.gd", GDConfig(L=2.0, eta=eta, T=12), 0, run_gd) for eta in (0.1, 0.25, 0.5)]

        def run_gd(config: GDConfig, seed: int):
            problem = Quadratic(config.L)
            trace = gd.run(problem, config, np.random.default_rng(np.random.SeedSequence(seed)))
            return {"f": trace.values} | outcome_arrays(check_claims(check, CLAIMS, problem, trace)), {}
        ''',
    "toy/figures.py": '''
        from repro.plotting import new_figure, run_provenance, save_figure

        def figure1(results, profile):
            fig, axes = new_figure()
            for r in results:
                axes[0, 0].semilogy(r.arrays["f"], label=f"eta={r.spec.config['eta']}")
            axes[0, 0].legend()
            return save_figure(fig, "toy", "figure1", run_provenance(results, profile, "toy.gd"))
        ''',
    "toy/experiments.py": '''
        from repro.experiment import Experiment

        from .figures import figure1
        from .runs import gd

        EXPERIMENTS = (Experiment("toy.gd", "Theorem 1 on three step sizes", gd.specs, figure1, config=gd.GDConfig),)
        ''',
    "toy/paper.py": '''
        from bounds.toy.claims import CLAIMS
        from repro.paper import Paper

        from .experiments import EXPERIMENTS


        def _audit():
            from . import audit
            return audit


        def _proofs():
            from bounds.toy import proofs
            return proofs


        def _steps():
            from bounds.toy.steps import STEPS
            return STEPS


        PAPER = Paper(key="toy", title="Toy paper", claims=CLAIMS, experiments=EXPERIMENTS, order=99,
                      audit=_audit, proofs=_proofs, steps=_steps)
        ''',
    "toy/audit.py": '''
        from bounds.toy.claims import CLAIMS
        from bounds.toy.findings import rate_at_the_largest_step
        from repro.tables import markdown_table
        from repro.verdicts import from_checks, roll_up

        AUDIT_EXPERIMENTS = ("toy.gd",)

        def verdicts(results):
            runs = results["toy.gd"]
            failed = sum(int((~r.arrays["passed"]).sum()) for r in runs)
            worst = max(float(r.arrays["ratio"].max()) for r in runs)
            evidence = from_checks("toy.contraction", "toy.gd", checks=sum(r.arrays["passed"].size for r in runs),
                                   failed=failed, worst=worst)
            return roll_up([c.id for c in CLAIMS], evidence)

        def audit_section(results, profile, verdicts):
            rows = [[v.claim, v.verdict.value, v.reason] for v in verdicts]
            rate, claim = rate_at_the_largest_step()
            return ("## Toy paper\\n\\n" + markdown_table(["claim", "verdict", "why"], rows)
                    + f"\\n\\nAt eta = 1/L the rate of {claim} is {rate}.\\n")
        ''',
}


def _write_toy(folder: Path) -> None:
    for name, text in TOY.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


def _tree_state() -> str:
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr                # a tree git cannot read would make the check vacuous
    return out.stdout


def test_a_toy_paper_is_listed_run_drawn_and_audited_with_no_shared_edit(tmp_path):
    papers = tmp_path / "papers"
    _write_toy(papers)
    env = os.environ | {"REPRO_PAPERS_PATH": str(papers), "REPRO_RESULTS_DIR": str(tmp_path / "results"),
                        "REPRO_FIGURES_DIR": str(tmp_path / "figures")}
    before = _tree_state()

    def cli(*args):
        out = subprocess.run([sys.executable, "-m", "repro", *args], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=600)
        assert out.returncode == 0, (args, out.stderr[-2000:])
        return out.stdout

    listed = cli("list")
    assert "toy.gd" in listed and "fedsgm.figure1" in listed
    assert "toy.contraction" in cli("bounds", "toy")
    assert "toy.gd: 3 runs (3 computed, 0 cached)" in cli("run", "toy.gd", "--no-progress", "--jobs", "2")
    assert "figure1.png" in cli("figures", "toy.gd", "--no-progress")
    assert (tmp_path / "figures/toy/figure1.png").stat().st_size > 0
    drawn = cli("figures", "--paper", "toy", "--no-progress").split()        # that paper's figures only
    assert drawn and all(Path(path).parent == tmp_path / "figures/toy" for path in drawn), drawn
    cli("audit", "--paper", "toy", "--output", str(tmp_path / "audit.md"), "--no-progress")
    audit, page = (tmp_path / "audit.md").read_text(), (tmp_path / "toy.md").read_text()
    assert "## Toy paper" in audit and "[details](toy.md)" in audit and '<a id="toy"></a>' in audit
    assert "## Toy paper" in page and "| toy.contraction | " in page and '<a id="toy-contraction">' in page
    assert "| holds | 3 checks, none violated" in page
    # its mathematics package supplies every part: the proof inventory and encoded step reach the page's coverage
    # table, its findings module the audit section
    assert "| Proof of Theorem 1 | 2 of 2 | 1 of 2 | -- |" in page, page[page.find("## Proof-step"):][:600]
    assert "At eta = 1/L the rate of toy.contraction is 0." in page
    cli("findings", "toy")                # a paper whose audit has no findings: no error
    terse, verbose = cli("verdicts", "toy", "--no-progress"), cli("verdicts", "toy", "--no-progress", "--verbose")
    assert "toy.contraction" in terse and max(map(len, terse.splitlines())) <= 120
    assert "supports: toy.gd" in verbose and len(verbose.splitlines()) > len(terse.splitlines())
    assert "3 cached" in cli("status", "toy.gd")
    bad = subprocess.run([sys.executable, "-m", "repro", "run", "toy.gd", "--set", "eta=0.9"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: eta=0.9 is not admissible: 0 < eta <= 1/L", bad.stderr

    # the toy's own code is part of its runs' cache key: a comment is not, a change of behaviour is
    algorithm = papers / "toy/algorithms/gd.py"
    algorithm.write_text(algorithm.read_text() + "# edited\n")
    assert "3 cached" in cli("status", "toy.gd")
    algorithm.write_text(algorithm.read_text().replace("x -= params.eta * problem.grad(x)",
                                                       "x = x - params.eta * problem.grad(x)"))
    assert "3 stale" in cli("status", "toy.gd")
    claims = papers / "bounds/toy/claims.py"
    claims.write_text(claims.read_text().replace("CLAIMS = (CONTRACTION,)", "CLAIMS = (CONTRACTION,)\nEXTRA = 1"))
    algorithm.write_text(algorithm.read_text().replace("x = x - params.eta", "x -= params.eta"))
    assert "3 stale" in cli("status", "toy.gd"), "its mathematics package is part of the key, too"
    assert _tree_state() == before
