"""FedSGM experiments, figures and audit: bit-identical results across backends, figures with provenance, the
package's parts in their layers, and the Figure-1 violation counts the figures and the audit share."""
import json
import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from repro import runner
from repro.papers.fedsgm import figures as F
from repro.papers.fedsgm.runs import theorems as R


def test_figure1_hard_and_soft_share_split_and_compressor_stream():
    hard, _ = R.run_figure1(R.Figure1Config(switching="hard", variant="default", profile="quick"), 1)
    soft, _ = R.run_figure1(R.Figure1Config(switching="soft", variant="default", profile="quick"), 1)
    assert hard["g"][0] == soft["g"][0] == pytest.approx(np.log(2))   # w0 = 0
    assert hard["f"][1] == soft["f"][1]          # same split, same first Rand-K draw, sigma_0 = 1 for both


def test_figures_are_written_with_provenance():
    results = runner.run_all(R.figure1_specs("quick"), jobs=1, progress=False)
    paths = F.figure1(results, "quick")
    names = {p.name for p in paths}
    assert {"figure1.pdf", "figure1.png", "figure1.json"} <= names
    prov = json.loads(next(p for p in paths if p.name == "figure1.json").read_text())
    assert prov["profile"] == "quick" and len(prov["runs"]) == 6
    assert all(Path(p).stat().st_size > 0 for p in paths)
    again = F.figure1(results, "quick")
    assert Path(again[1]).read_bytes() == Path(paths[1]).read_bytes()  # deterministic PNG
    assert str(paths[0]).startswith(os.environ["REPRO_FIGURES_DIR"])


# ---------------------------------------------------------------------------- the package's parts



def _fake(variant, switching, violations, after, f_last):
    spec = SimpleNamespace(config={"variant": variant, "switching": switching})
    arrays = {"violations": np.array(violations), "violations_after_transient": np.array(after),
              "f": np.array([1.0, f_last])}
    return SimpleNamespace(spec=spec, arrays=arrays)


def test_figure1_counts_shared_by_figure_and_audit():
    from repro.papers.fedsgm import section as SE
    from repro.papers.fedsgm.summaries import violations
    from repro.tables import select_results as select
    results = [_fake(variant, sw, v, a, 0.5) for variant in R.FIGURE1_VARIANTS
               for sw, v, a in (("hard", 8, 4), ("soft", 2, 0), ("hard", 12, 6), ("soft", 2, 0))]
    hard = select(results, variant="default", switching="hard")
    assert len(hard) == 2 and select(hard, variant="default") == hard
    counts, after = violations(hard)
    assert counts.tolist() == [8.0, 12.0] and after.tolist() == [4.0, 6.0]
    rows = SE._figure1_summary(results)
    assert [row[0] for row in rows] == list(R.FIGURE1_VARIANTS)
    assert rows[0][1:7] == ["10.0 ± 2.0", "2.0 ± 0.0", "5.0 ± 1.0", "0.0 ± 0.0", "5", "inf (soft: 0)"]
