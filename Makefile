# fedbounds: `make reproduce` rebuilds every result, figure, notebook and the audit report;
# `make test` runs the test suite. Both create .venv on first use. Only stale steps rerun:
# results are cached by config, code and library versions (REPRO_RESULTS_DIR, default results/),
# and each later step depends on stamp files kept in the same folder, dated when the step started (a copy of
# the time of .venv/.started<stamp>, written then): a source edited while a step ran is newer than its stamp,
# so the next `make reproduce` reruns what the edit changed.
PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
PROFILE ?= quick
JOBS    ?= 2
RESULTS_DIR := $(or $(REPRO_RESULTS_DIR),results)
INSTALLED := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
# the measured run costs only price runs (ETA, plan): recalibrating them rebuilds nothing
SOURCES := $(shell find bounds repro \( -name '*.py' -o -name '*.json' \) ! -name measured_costs.json \
             2>/dev/null) pyproject.toml
RESULTS := $(RESULTS_DIR)/.complete-$(PROFILE)
# one figures step (and stamp) per paper: a notebook waits only for its own paper's figures
PAPERS  := $(patsubst repro/papers/%/paper.py,%,$(wildcard repro/papers/*/paper.py))
FIGURES := $(foreach paper,$(PAPERS),$(RESULTS_DIR)/.figures-$(PROFILE)-$(paper))
NOTEBOOKS := $(patsubst %.py,%.ipynb,$(wildcard notebooks/*.py))
# Python keeps the bytecode of what each step imports (in .venv and the git-ignored __pycache__ folders) whatever
# PYTHONDONTWRITEBYTECODE says: where it is set, each of the ~20 processes of a rebuild (the run pool's workers, the
# figures, the audit, every notebook's kernel) compiled every module it imported again, ~9 CPU s for one that loads
# sympy, scipy and matplotlib (the audit: 60 CPU s with it set, 37 without; 2026-12-03)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: reproduce test browser figures notebooks audit report bench clean venv results status

# the figures, the audit and the four notebooks only read results (and the figures): they run side by side, JOBS
# at a time; the audit, once every figure is drawn, records each paper's verdicts and findings (repro.audited), which
# the notebooks, executed after it, read instead of computing them again
reproduce: $(RESULTS)
	$(MAKE) --no-print-directory -j $(JOBS) reports/audit.md $(NOTEBOOKS)
	$(MAKE) --no-print-directory reports/html/audit.html

# The libraries are installed by uv, which unpacks wheels in parallel: on a fresh clone, 35 s with pip (without
# byte-compiling), 12 s with uv and pip's install of uv itself, the same releases from PyPI (`pip freeze` compared,
# 2026-12-04). uv does not read pip's configuration: where pip is set to a mirror, set UV_INDEX_URL too. pip installs
# them where uv cannot be installed or fails. Neither byte-compiles (pip did it one file at a time, 35 of a 59 s
# install, 2026-12-02): a run of
# `make reproduce` compiles what it imports on first import, a fraction of the libraries. The tests, whose two workers
# would otherwise compile the same modules side by side on first import, get the libraries and the project's modules
# compiled on every core first (COMPILED; the libraries' own test folders, which nothing here imports, left out: 14 s
# on 2 cores, 2026-12-02). A file that does not compile only costs its importer
# the compilation, so that is a note, not a failure.
venv: $(INSTALLED)
$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv && $(PY) -m uv pip install --quiet --python $(PY) -e '.[dev]' \
	  || $(PY) -m pip install --quiet --no-compile -e '.[dev]'
	touch $@

$(COMPILED): $(INSTALLED)
	$(PY) -m compileall -q -j 0 -x '/tests?/' "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" \
	  bounds repro \
	  || echo "note: some files did not byte-compile; Python compiles them when they are imported"
	touch $@

results: $(RESULTS)
$(RESULTS): $(INSTALLED) $(SOURCES)
	touch $(VENV)/.started$(notdir $@)
	$(PY) -m repro run all --profile $(PROFILE) --jobs $(JOBS)
	touch -r $(VENV)/.started$(notdir $@) $@

figures: $(RESULTS)
	$(MAKE) --no-print-directory -j $(JOBS) $(FIGURES)
$(RESULTS_DIR)/.figures-$(PROFILE)-%: $(RESULTS)
	touch $(VENV)/.started$(notdir $@)
	$(PY) -m repro figures --paper $* --profile $(PROFILE) --no-progress
	touch -r $(VENV)/.started$(notdir $@) $@

audit: reports/audit.md
reports/audit.md: $(RESULTS) $(FIGURES)
	$(PY) -m repro audit --profile $(PROFILE) --jobs $(JOBS) --no-progress

# the static HTML report (git-ignored): the Markdown pages, the figures and the executed notebooks, links checked
report: reports/html/audit.html
reports/html/audit.html: reports/audit.md $(NOTEBOOKS) $(FIGURES)
	$(PY) -m repro html

notebooks: $(NOTEBOOKS)
notebooks/%.ipynb: notebooks/%.py $(RESULTS) $(RESULTS_DIR)/.figures-$(PROFILE)-% reports/audit.md
	$(PY) -m repro notebooks $*

status: $(INSTALLED)
	$(PY) -m repro status --profile $(PROFILE)

test: $(COMPILED)
	$(PY) -m pytest --hypothesis-profile=ci -q -p no:cacheprovider -n 2 --dist worksteal

# Debian's Chromium, which the browser test of the HTML site drives (tests/test_html.py); CI runs it before
# `make test` (.ci/run). Installing a Debian package needs root, or sudo.
browser:
	@command -v chromium >/dev/null 2>&1 || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }
	@chromium --version 2>/dev/null

# the mutation benchmark exits 1 when a planted fault is missed: make says so ("ignored") and goes on to the
# summary, which records the score beside the other figures
bench: $(INSTALLED)
	$(PY) benchmarks/bench_fedsgm.py
	$(PY) benchmarks/bench_pcfedavg.py
	$(PY) benchmarks/bench_fedclup.py
	$(PY) benchmarks/bench_ssca.py
	$(PY) benchmarks/bench_imports.py
	$(PY) benchmarks/bench_runner.py
	$(PY) benchmarks/bench_reproduce.py
	-$(PY) benchmarks/bench_mutation.py
	$(PY) benchmarks/summary.py

clean:
	rm -rf $(RESULTS_DIR) .hypothesis .pytest_cache benchmarks/out
	find . -name __pycache__ -type d -prune -not -path './$(VENV)/*' -exec rm -rf {} +
