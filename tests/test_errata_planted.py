"""Calibration on planted errors: a small paper package, written into a temporary folder and found only through
``REPRO_PAPERS_PATH`` (as the toy paper of ``test_toy_paper.py``), carries one error of every kind, and
``python -m repro errata`` must report each as exactly one erratum of the right kind and consequences -- and nothing
else as violated.

The paper is gradient descent on f(x) = L x^2 / 2 (Algorithm 1), and the same method with an averaging line
(Algorithm 2, whose line 3 is printed with half the step its compact form (CR) takes). What is planted:

* a **false statement**: "Theorem 1: f(x_T) <= (1 - eta L)^(4T) f(x_0)" (the true rate has the exponent 2T);
* a **typo**: the proof of Lemma 1 prints ``L eta g^2 / 2`` in display (2) where the expansion gives
  ``L eta^2 g^2 / 2``, and display (3) continues from the squared form;
* a **gap**: the proof of Lemma 2 steps from ``eta L <= 1`` to ``eta L <= 1/2``; the lemma itself (f(x_T) <= f(x_0))
  is true. Its display (1) is encoded with the minus sign inside a brace, where the print also admits it outside
  (a notation, no erratum);
* an **inconsistency**: Theorem 3 holds on (CR) and fails on line 3 as printed;
* an **unstated choice**: "Figure 1: f falls below 1e-3 f(x_0) within 20 iterations" holds with eta = 0.5/L and fails
  with eta = 0.1/L, and the paper does not give eta.

A second check runs the same engine with the kind decision perturbed and requires the calibration to notice.
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PLANT = {
    "__init__.py": '"""A paper with planted errors, one of each kind."""\n',
    "claims.py": '''
        import sympy as sp

        from bounds.core import Claim, Mode

        f_T, f_0, f_next, f_t, g, eta, L, T = sp.symbols("f_T f_0 f_next f_t g eta L T")
        DOMAINS = {f_T: "observed", f_0: "real >= 0", eta: "real > 0", L: "real > 0", T: "integer >= 0"}
        CLAIMS = (
            Claim(id="plant.thm1", location="Theorem 1", mode=Mode.DETERMINISTIC, domains=DOMAINS,
                  statement="Algorithm 1: f(x_T) <= (1 - eta L)^(4T) f(x_0) for 0 < eta L <= 1.",
                  hypotheses=(sp.Le(eta * L, 1),), conclusion=(sp.Le(f_T, (1 - eta * L) ** (4 * T) * f_0),)),
            Claim(id="plant.lemma1", location="Lemma 1", mode=Mode.DETERMINISTIC,
                  domains={f_next: "observed", f_t: "real", g: "real", eta: "real > 0", L: "real > 0"},
                  statement="Algorithm 1: f(x_(t+1)) <= f(x_t) - (eta/2) g_t^2 for 0 < eta L <= 1.",
                  hypotheses=(sp.Le(eta * L, 1),), conclusion=(sp.Le(f_next, f_t - eta / 2 * g ** 2),)),
            Claim(id="plant.lemma2", location="Lemma 2", mode=Mode.DETERMINISTIC, domains=DOMAINS,
                  statement="Algorithm 1: f(x_T) <= f(x_0) for 0 < eta L <= 1.",
                  hypotheses=(sp.Le(eta * L, 1),), conclusion=(sp.Le(f_T, f_0),)),
            Claim(id="plant.thm3", location="Theorem 3", mode=Mode.DETERMINISTIC, domains=DOMAINS,
                  statement="Algorithm 2: f(x_T) <= (1 - eta L)^(2T) f(x_0) for 0 < eta L <= 1.",
                  hypotheses=(sp.Le(eta * L, 1),), conclusion=(sp.Le(f_T, (1 - eta * L) ** (2 * T) * f_0),)))
        ''',
    "algorithms/__init__.py": "",
    "algorithms/gd.py": '''
        import numpy as np

        def run(problem, params, rng):
            """Gradient descent from params.x0; params.step is the multiple of eta the update takes (1: (CR);
            1/2: Algorithm 2's line 3 as printed). Returns f(x_t) and f'(x_t) for t = 0..T."""
            x, values, grads = float(params.x0), [], []
            for _ in range(int(params.T) + 1):
                values.append(0.5 * problem * x * x)
                grads.append(problem * x)
                x -= params.step * params.eta * problem * x
            return np.array(values), np.array(grads)
        ''',
    "runs/__init__.py": "",
    "runs/gd.py": '''
        from dataclasses import dataclass

        import numpy as np

        from repro.errors import require
        from types import SimpleNamespace

        from repro.experiment import Config
        from repro.runner import RunSpec

        from ..algorithms import gd

        L = 2.0
        #: the step sizes eta L of Figure 1 the paper leaves open (errata.CHOICES) and the paths of Algorithm 2
        ETAS = {"0.1/L": 0.1 / L, "0.5/L": 0.5 / L}
        PATHS = {"line 3 as printed": 0.5, "(CR)": 1.0}

        @dataclass(frozen=True)
        class GDConfig(Config):
            eta: str
            path: str
            T: int = 20

            def __post_init__(self):
                require(self.eta in ETAS, "eta", self.eta, f"one of {', '.join(ETAS)}")
                require(self.path in PATHS, "path", self.path, f"one of {', '.join(PATHS)}")

        def specs(profile, algorithm):
            paths = PATHS if algorithm == 2 else ("(CR)",)
            return [RunSpec(f"plant.alg{algorithm}", GDConfig(eta=e, path=p), 0, run_gd) for e in ETAS for p in paths]

        def run_gd(config: GDConfig, seed: int):
            eta = ETAS[config.eta]
            f, g = gd.run(L, SimpleNamespace(x0=1.0, T=config.T, eta=eta, step=PATHS[config.path]), None)
            T = np.arange(f.size)
            return {"f": f, "g": g, "eta": np.array(eta), "L": np.array(L), "T": T}, {}
        ''',
    "steps.py": '''
        import sympy as sp

        from bounds.steps import Boxes, Notation, Step

        BOX = Boxes()
        f, g = BOX.symbols("f g", (-3.0, 3.0), real=True)
        eta, L = BOX.symbols("eta L", (0.01, 3.0), positive=True)
        HYP = (sp.Le(eta * L, 1),)
        TYPO = (("plant.d2", "as printed"),), (("plant.d2", "corrected"),)
        STEPS = (
            Step("Proof of Lemma 1", "(2)", "plant.lemma1", f - eta * g**2 + L * eta**2 * g**2 / 2, "==",
                 f - eta * g**2 + L * eta * g**2 / 2, BOX, HYP, variant=TYPO[0]),
            Step("Proof of Lemma 1", "(2)", "plant.lemma1", f - eta * g**2 + L * eta**2 * g**2 / 2, "==",
                 f - eta * g**2 + L * eta**2 * g**2 / 2, BOX, HYP, variant=TYPO[1]),
            Step("Proof of Lemma 1", "(3)", "plant.lemma1", f - eta * g**2 + L * eta**2 * g**2 / 2, "<=",
                 f - eta / 2 * g**2, BOX, HYP, variant=TYPO[1], uses=("(2)",)),
            Step("Proof of Lemma 2", "(1)", "plant.lemma2", -eta * g**2 + L * eta**2 * g**2 / 2, "<=",
                 eta * (1 - eta * L / 2) * g**2, BOX, HYP,
                 notations=(Notation("minus outside the brace", -eta * g**2 + L * eta**2 * g**2 / 2, "<=",
                                     -eta * (1 - eta * L / 2) * g**2, "display (1) writes -eta(...)"),)),
            Step("Proof of Lemma 2", "(2)", "plant.lemma2", eta * L, "<=", sp.Rational(1, 2), BOX, HYP))
        ''',
    "runs/steps.py": '''
        from repro import proof_search
        from repro.proof_search import StepsConfig

        from ..steps import STEPS

        def specs(profile):
            return proof_search.specs("plant.steps", run, STEPS, profile)

        def run(config: StepsConfig, seed: int):
            return proof_search.run(STEPS, config)
        ''',
    "errata.py": '''
        from repro.errata import Choice, Erratum

        ERRATA = (
            Erratum("plant.line3", "Algorithm 2, line 3", "x_(t+1) = x_t - (eta/2) f'(x_t)",
                    "Line 3 of Algorithm 2 takes half the step that the compact form (CR) takes.",
                    correction="Algorithm 2 is (CR): x_(t+1) = x_t - eta f'(x_t)",
                    other_place="Section 2, (CR): 'we write Algorithm 2 compactly as x_(t+1) = x_t - eta f'(x_t)'",
                    options=("line 3 as printed", "(CR)")),
            Erratum("plant.d2", "Proof of Lemma 1, display (2)", "f - eta g^2 + L eta g^2 / 2",
                    "Display (2) drops the square of eta.", correction="f - eta g^2 + L eta^2 g^2 / 2",
                    options=("as printed", "corrected")))
        CHOICES = (Choice("plant.eta", "Section 5, Figure 1", "we run Algorithm 1 on f(x) = x^2",
                          "Figure 1's step size is not given.", ("0.1/L", "0.5/L"),
                          "Theorem 1's hypothesis 0 < eta L <= 1 admits both"),)
        ''',
    "experiments.py": '''
        from repro.experiment import Experiment
        from repro.proof_search import StepsConfig

        from .runs import gd, steps

        EXPERIMENTS = (
            Experiment("plant.alg1", "Algorithm 1", lambda profile: gd.specs(profile, 1), None, config=gd.GDConfig),
            Experiment("plant.alg2", "Algorithm 2 on both readings", lambda profile: gd.specs(profile, 2), None,
                       config=gd.GDConfig),
            Experiment("plant.steps", "proof steps", steps.specs, None, config=StepsConfig))
        ''',
    "paper.py": '''
        from repro.paper import Paper

        from .claims import CLAIMS
        from .experiments import EXPERIMENTS


        def _audit():
            from . import audit
            return audit


        def _errata():
            from . import errata
            return errata


        def _steps():
            from .steps import STEPS
            return STEPS


        PAPER = Paper(key="plant", title="Planted paper", claims=CLAIMS, experiments=EXPERIMENTS, order=98,
                      audit=_audit, errata=_errata, steps=_steps)
        ''',
    "audit.py": '''
        import numpy as np

        from repro import errata, proof_audit
        from repro.verdicts import Statement, from_checks, from_findings, roll_up

        from . import errata as declared
        from .claims import CLAIMS
        from .steps import STEPS

        AUDIT_EXPERIMENTS = ("plant.alg1", "plant.alg2", "plant.steps")
        STATEMENTS = (Statement("plant.figure1.fast", "Section 5, Figure 1",
                                "f falls below 1e-3 f(x_0) within 20 iterations", "plant.alg1"),)
        TOL = 1e-12

        def _claim(claim, source, runs, observed, bound, reading=lambda r: ()):
            out = []
            for r in runs:
                a = r.arrays
                lhs, rhs = observed(a), bound(a)
                ratio = lhs / np.maximum(rhs, 1e-300)
                worst = int(np.argmax(ratio))
                out += from_checks(claim, source, checks=lhs.size, failed=int(np.sum(lhs > rhs * (1 + TOL) + TOL)),
                                   worst=float(ratio[worst]), observed=float(lhs[worst]), bound=float(rhs[worst]),
                                   reading=reading(r), replay=f"python -m repro run {source}; result {r.hash}")
            return out

        def findings(results):
            return proof_audit.findings(results.get("plant.steps", ()), STEPS)

        def evidence(results):
            alg1, alg2 = results["plant.alg1"], results["plant.alg2"]
            rate = lambda a, power: (1 - a["eta"] * a["L"]) ** (power * a["T"]) * a["f"][0]
            path = lambda r: (("plant.line3", r.spec.config["path"]),)
            eta = lambda r: (("plant.eta", r.spec.config["eta"]),)
            ids = [c.id for c in CLAIMS]
            out = _claim("plant.thm1", "plant.alg1", alg1, lambda a: a["f"], lambda a: rate(a, 4))
            out += _claim("plant.lemma1", "plant.alg1", alg1, lambda a: a["f"][1:],
                          lambda a: a["f"][:-1] - a["eta"] / 2 * a["g"][:-1] ** 2)
            out += _claim("plant.lemma2", "plant.alg1", alg1, lambda a: a["f"], lambda a: a["f"][:1] + 0 * a["f"])
            out += _claim("plant.thm3", "plant.alg2", alg2, lambda a: a["f"], lambda a: rate(a, 2), path)
            out += _claim("plant.figure1.fast", "plant.alg1", alg1, lambda a: a["f"][-1:], lambda a: 1e-3 * a["f"][:1],
                          eta)
            return (out + proof_audit.evidence(proof_audit.rows(results.get("plant.steps", ())), ids)
                    + from_findings(findings(results), ids))

        def verdicts(results):
            return roll_up([c.id for c in CLAIMS] + [s.id for s in STATEMENTS], evidence(results), {},
                           errata.readings(declared))

        def audit_section(results, profile, verdicts):
            return "## Planted paper"
        ''',
}

#: what the calibration must find: erratum -> (kind, fails as printed, holds once corrected, depends on it)
EXPECTED = {
    "plant.thm1": ("false statement", ["plant.thm1"], [], []),
    "plant.step.proof_of_lemma_2.2": ("gap", ["plant.lemma2"], [], []),
    "plant.line3": ("inconsistency", ["plant.thm3"], ["plant.thm3"], []),
    "plant.eta": ("unstated choice", [], [], ["plant.figure1.fast"]),
    "plant.d2": ("typo", ["plant.lemma1"], ["plant.lemma1"], []),
}
VERDICTS = {"plant.thm1": "violated", "plant.lemma1": "holds once corrected", "plant.lemma2": "not proven",
            "plant.thm3": "holds once corrected", "plant.figure1.fast": "depends on a choice"}

#: runs the engine in the package's environment, optionally with the kind decision perturbed, and prints JSON
PROBE = '''
import json, sys
import repro.errata as E
from repro.audited import paper_verdicts
from repro.report import experiment_results, paper_errata
from repro.registry import paper
if sys.argv[1] == "perturbed":
    original = E.decide_kind
    E.decide_kind = lambda f: E.Kind.GAP if original(f) is E.Kind.TYPO else original(f)
audit = paper("plant").audit()
results = experiment_results(audit.AUDIT_EXPERIMENTS, "quick")
verdicts = paper_verdicts("plant", results)
errata = paper_errata("plant", results, verdicts, audit.findings(results))
print(json.dumps({"verdicts": {v.claim: v.verdict.value for v in verdicts}, "errata": [e.as_dict() for e in errata]}))
'''


@pytest.fixture(scope="module")
def plant(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("planted")
    for name, text in PLANT.items():
        path = tmp / "papers" / "plant" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    env = os.environ | {"REPRO_PAPERS_PATH": str(tmp / "papers"), "REPRO_RESULTS_DIR": str(tmp / "results"),
                        "REPRO_FIGURES_DIR": str(tmp / "figures")}

    def run(*args):
        out = subprocess.run([sys.executable, *args], cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, (args, out.stderr[-3000:])
        return out.stdout
    return run


def _calibrated(found: dict) -> list[str]:
    """What is wrong with ``found`` against :data:`EXPECTED` and :data:`VERDICTS` (empty: calibrated)."""
    problems = []
    errata = {e["id"]: e for e in found["errata"]}
    if set(errata) != set(EXPECTED):
        problems.append(f"errata {sorted(errata)} != {sorted(EXPECTED)}")
    for id_, (kind, fails, once, depends) in EXPECTED.items():
        e = errata.get(id_)
        if e and (e["kind"], e["fails_as_printed"], e["holds_once_corrected"], e["depends"]) != (kind, fails, once,
                                                                                                  depends):
            problems.append(f"{id_}: {e['kind']}, {e['fails_as_printed']}, {e['holds_once_corrected']}, "
                            f"{e['depends']}")
    if found["verdicts"] != VERDICTS:
        problems.append(f"verdicts {found['verdicts']}")
    return problems


def test_every_planted_error_is_one_erratum_of_its_kind_and_nothing_else_is_violated(plant):
    found = json.loads(plant("-c", PROBE, "plain"))
    assert _calibrated(found) == []
    printed = plant("-m", "repro", "errata", "plant", "--no-progress")
    order = [printed.find(f"  {kind}") for kind in ("false statement", "gap", "inconsistency", "unstated choice",
                                                    "typo")]
    assert -1 not in order and order == sorted(order), printed
    # Theorem 1's worst check is the claim's own: at eta L = 1/2, T = 20, f_T = (1/2)^40 against (1/2)^80
    assert "worst instance: observed 9.095e-13 against bound 8.272e-25" in printed, printed


def test_a_perturbed_kind_decision_fails_the_calibration(plant):
    assert _calibrated(json.loads(plant("-c", PROBE, "perturbed")))
