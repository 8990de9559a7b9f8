# Everything installs itself into .venv on first use: `make test` and `make demo` work on a fresh clone.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: install test demo bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -n 2 --durations=5

demo: $(STAMP)
	$(VENV)/bin/simtool sweep reports/demo.toml --runs runs/demo --force --out reports/balance.html \
		--title "simtool balance report: all games"

bench: $(STAMP)
	$(PY) bench/bench.py

clean:
	rm -rf $(VENV) runs .pytest_cache
