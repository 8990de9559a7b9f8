# Everything installs itself into .venv on first use: `make test` and `make demo` work on a fresh clone.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: install browser test calibrate demo bench strength notebooks clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

# The report's browser test drives the system Chromium; install it where we can (root with
# apt-get), otherwise that one test skips and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 \
		|| { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; }; }; } \
		|| echo "note: Chromium could not be installed from the system packages; the browser test will be skipped"

test: $(STAMP) browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	PYTHONDONTWRITEBYTECODE= OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -n 2 --durations=5

# Coverage of every kind of interval against the truth, 1000 replicates each (5-10 min on 2 cores).
calibrate: $(STAMP)
	$(PY) -m tests.calibration --replicates 1000

REVIEWED := black-white kansas-city trickster out-trumped nine-lives

# A quick review of each seed game (about a minute each on 2 cores: 42 to 58 s, Nine Lives 94 to
# 125 s, measured 2026-11-28 at load 1.6 to 3), Kansas City passing 2 cards
# against the sheet's 3 and Hearts against Omnibus (the same deals), then the earlier reports.
demo: $(STAMP)
	for g in $(REVIEWED); do $(VENV)/bin/simtool review --game $$g --out reviews/$$g --seed 1 || exit 2; done
	$(VENV)/bin/simtool review --game kansas-city --vs-rule pass_count=2 --out reviews/kansas-city-pass-2 --seed 1
	$(VENV)/bin/simtool review --game hearts --vs-rule jack=on --out reviews/hearts-omnibus --seed 1
	$(VENV)/bin/simtool sweep reports/demo.toml --runs runs/demo --force --out reports/balance.html \
		--title "simtool balance report: all games"
	$(VENV)/bin/simtool sweep reports/demo-duplicate.toml --runs runs/demo-duplicate --force \
		--out reports/duplicate.html --title "simtool: duplicate matches, luck and tension"
	$(VENV)/bin/simtool sweep reports/demo-restrict.toml --runs runs/demo-restrict --force \
		--out reports/restrict.html --title "simtool: restricted play, what each restriction costs"
	$(VENV)/bin/simtool tune --game kansas-city --vary pass_count --objective seat_spread:min \
		--objective skill:max --n 1e4 --seed 1 --out runs/demo-tune --report reports/tune.html --quiet

# Ratios against the compiled loops, memory, --jobs scaling: about 5 minutes on 2 cores.
# More: make bench BENCH_ARGS=--huge (1e8 deals' memory), BENCH_ARGS=--all (every table); docs/speed.md
bench: $(STAMP)
	$(PY) bench/bench.py $(BENCH_ARGS)

# The README's strength table: pimc, clairvoyant and a doubled budget against each game's default
# heuristic, at the default rules and two variants, into docs/strength.md (.json, .csv). About 7 min
# on 2 idle cores; resumes where it stopped, keeping finished cells: after a change to the strategies,
# STRENGTH_ARGS=--force plays every cell again. STRENGTH_ARGS=--quick: a smoke run of a minute or two.
strength: $(STAMP)
	$(PY) bench/strength.py $(STRENGTH_ARGS)

# Stores every notebook executed at its full size, outputs included (CI runs them small and never
# rewrites them). About a minute on 2 cores.
notebooks: $(STAMP)
	$(PY) notebooks/execute.py

clean:
	rm -rf $(VENV) runs .pytest_cache
