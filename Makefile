# ovlab: the README's two commands are `make lab` and `make test`. Both set up a fresh
# virtual environment in .venv on first use (a clean clone needs nothing else but python3).

PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.ovlab-installed
PYTEST_ARGS ?=

.PHONY: lab test unit fuzz notebooks browser binder labs bench lint chromium clean openvino-suite \
	openvino-suite-real genai-suite genai-suite-real deck deck-check wheelhouse wheelhouse-check

# NumPy's OpenBLAS threads fight pytest-xdist workers (and each other) on 2 cores: a model that
# takes 45 ms alone took over a second under load. One BLAS thread per process in the tests.
test unit fuzz notebooks browser binder labs openvino-suite openvino-suite-real genai-suite \
	genai-suite-real deck-check: export OPENBLAS_NUM_THREADS = 1

# PYTHONWARNINGS: setuptools frames its note on editable installs in "!!" banners that read like
# a failure to a newcomer; the install itself is fine.
$(STAMP): pyproject.toml requirements.txt binder/requirements.txt binder/constraints-test.txt
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	cat binder/requirements.txt binder/constraints-test.txt > $(VENV)/constraints.txt
	PYTHONWARNINGS="ignore:Editable installation" \
		$(BIN)/python -m pip install -q -r requirements.txt -c $(VENV)/constraints.txt -e .
	touch $@

# JupyterLab's settings for this environment (no "Jupyter news?" pop-up, no update check): the
# same overrides.json that binder/postBuild installs on Binder
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
$(LAB_OVERRIDES): binder/overrides.json $(STAMP)
	mkdir -p $(dir $@)
	cp binder/overrides.json $@

## JupyterLab on the labs
lab: $(STAMP) $(LAB_OVERRIDES)
	cd labs && ../$(BIN)/jupyter lab $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) \
		--LabApp.default_url=/lab/tree/00-start-here.ipynb

## the whole test suite: unit, conformance, real browser, Binder stand-in (every lab with nbval)
test: $(STAMP) chromium
	@$(BIN)/python tests/real_wheel.py
	$(BIN)/ruff check .
	$(BIN)/pytest -n 2 --dist loadfile -m "not browser and not binder" tests $(PYTEST_ARGS)
	$(MAKE) --no-print-directory deck-check
	@# every lab runs with nbval inside the Binder stand-in (tests/test_binder.py: a fresh
	@# environment from binder/, outputs compared with the stored ones), on one worker while the
	@# real-browser tests run on the other ('make notebooks' runs nbval in .venv alone)
	$(BIN)/pytest -n 2 --dist loadfile -m "browser or binder" tests/browser tests/test_binder.py \
		$(PYTEST_ARGS)
	$(MAKE) --no-print-directory openvino-suite
	$(MAKE) --no-print-directory genai-suite

## the differential tests (tests/differential: the real wheels vs ovlab on generated inputs)
## with the nightly hypothesis profile: 50 times the examples, random seeds (make test runs
## them derandomized, with the default budget); every unexplained difference fails
fuzz: $(STAMP)
	$(BIN)/pytest -p no:cacheprovider --hypothesis-profile=nightly tests/differential \
		$(PYTEST_ARGS)

## quicker local loops
unit: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadfile -m "not browser and not binder" tests $(PYTEST_ARGS)
notebooks: $(STAMP)
	$(BIN)/pytest -p no:cacheprovider --nbval --nbval-current-env -n 2 --dist loadfile \
		--nbval-sanitize-with tests/nbval-sanitize.cfg labs $(PYTEST_ARGS)
browser: $(STAMP) chromium
	$(BIN)/pytest -m browser tests/browser $(PYTEST_ARGS)
binder: $(STAMP)
	$(BIN)/pytest -m binder tests/test_binder.py $(PYTEST_ARGS)

## OpenVINO's own Python API tests, unmodified, under `python -m ovlab run -m pytest` on the
## virtual copy of the machine they were measured on; the files are not committed (see
## tests/openvino_suite/README.md for where they come from and how to bring them)
SUITE := tests/openvino_suite
SUITE_FILE := $(SUITE)/upstream/tests/__init__.py
SHARED_SUITE := ../shared/openvino_suite
openvino-suite: $(STAMP)
	@if [ ! -f $(SUITE_FILE) ] && [ -d $(SHARED_SUITE)/tests ]; then \
		sh $(SUITE)/bring_files.sh $(SHARED_SUITE) >/dev/null; fi
	@if [ -f $(SUITE_FILE) ]; then \
		cd $(SUITE) && ../../$(BIN)/python -m ovlab run --platform cpu -m pytest $(PYTEST_ARGS); \
	else echo "openvino-suite: skipped, OpenVINO's test files are not in $(SUITE)/upstream/ or $(SHARED_SUITE)/ (how to get them: $(SUITE)/README.md)"; fi
## the same files on the real openvino wheel, for the comparison figure
openvino-suite-real: $(STAMP)
	@if [ -f $(SUITE_FILE) ]; then cd $(SUITE) && ../../$(BIN)/python -m pytest $(PYTEST_ARGS); \
	else echo "openvino-suite-real: skipped, OpenVINO's test files are not in $(SUITE)/upstream/"; fi

## OpenVINO GenAI's own model-free test modules (GenerationConfig, the omni configs), unmodified,
## under `python -m ovlab run -m pytest`; not committed (tests/genai_suite/README.md says where
## they come from and how to bring them)
GENAI_SUITE := tests/genai_suite
GENAI_SUITE_FILE := $(GENAI_SUITE)/upstream/test_generation_config.py
SHARED_GENAI_SUITE := ../shared/genai_suite
genai-suite: $(STAMP)
	@if [ ! -f $(GENAI_SUITE_FILE) ] && [ -d $(SHARED_GENAI_SUITE) ]; then \
		sh $(GENAI_SUITE)/bring_files.sh $(SHARED_GENAI_SUITE) >/dev/null; fi
	@if [ -f $(GENAI_SUITE_FILE) ]; then \
		cd $(GENAI_SUITE) && ../../$(BIN)/python -m ovlab run -m pytest $(PYTEST_ARGS); \
	else echo "genai-suite: skipped, GenAI's test files are not in $(GENAI_SUITE)/upstream/ or $(SHARED_GENAI_SUITE)/ (how to get them: $(GENAI_SUITE)/README.md)"; fi
genai-suite-real: $(STAMP)
	@if [ -f $(GENAI_SUITE_FILE) ]; then cd $(GENAI_SUITE) && ../../$(BIN)/python -m pytest $(PYTEST_ARGS); \
	else echo "genai-suite-real: skipped, GenAI's test files are not in $(GENAI_SUITE)/upstream/"; fi

## the opening deck (docs/deck/opening.ipynb): its stored outputs against a fresh run (nbval),
## and its slides as HTML that load nothing from the network (reveal.js from the sphinx-revealjs
## wheel, tools/build_deck.py): artifacts/deck/opening.slides.html
deck-check: $(STAMP)
	$(BIN)/pytest -p no:cacheprovider -q --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval-sanitize.cfg docs/deck/opening.ipynb
deck: $(STAMP)
	$(BIN)/python tools/build_deck.py

## an offline install for a room without internet: wheelhouse/ gets every wheel the labs need
## (binder/requirements.txt's pins and what they pull in, for this machine's platform and
## Python), ovlab's own wheel and the deck's reveal.js; on the learners' machines:
##   python3 -m venv .venv
##   .venv/bin/pip install --no-index --find-links wheelhouse -r wheelhouse/requirements.txt ovlab
## (another platform: PIP_PLATFORM_ARGS="--platform win_amd64 --only-binary=:all:"; docs/instructors.md)
WHEELHOUSE ?= wheelhouse
PIP_PLATFORM_ARGS ?=
wheelhouse: $(STAMP)
	mkdir -p $(WHEELHOUSE)
	rm -f $(WHEELHOUSE)/ovlab-*.whl
	$(BIN)/python -m pip download -q $(PIP_PLATFORM_ARGS) -d $(WHEELHOUSE) -r binder/requirements.txt
	$(BIN)/python -m pip download -q --no-deps -d $(WHEELHOUSE) 'sphinx-revealjs>=3.2'
	$(BIN)/python -m pip wheel -q --no-deps -w $(WHEELHOUSE) .
	cp binder/requirements.txt $(WHEELHOUSE)/requirements.txt
	@echo "$(WHEELHOUSE)/: $$(ls $(WHEELHOUSE)/*.whl | wc -l) wheels, $$(du -sh $(WHEELHOUSE) | cut -f1)"
## the round trip: a fresh venv from the wheelhouse alone (pip --no-index), then ovlab check
## on lab 00 (a few minutes: not part of make test)
wheelhouse-check: wheelhouse
	$(BIN)/python tools/wheelhouse_check.py $(WHEELHOUSE)

## re-execute every lab in place so the stored outputs match the code
labs: $(STAMP)
	$(BIN)/python tools/run_labs.py

## simulator speed figures and the fidelity tables quoted in the README
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_runtime.py
	$(BIN)/python benchmarks/bench_models.py
	$(BIN)/python benchmarks/bench_ir.py
	$(BIN)/python benchmarks/bench_soak.py
	$(BIN)/python benchmarks/bench_aipc.py
	$(BIN)/python benchmarks/bench_dashboards.py
	$(BIN)/python benchmarks/bench_render.py
	$(BIN)/python benchmarks/bench_fidelity.py --holdout --leave-one-out
	$(BIN)/python benchmarks/fit_presets.py
	$(BIN)/python benchmarks/bench_llm.py
	$(BIN)/python benchmarks/bench_genai_real.py
	$(BIN)/python benchmarks/bench_this_machine.py

lint: $(STAMP)
	$(BIN)/ruff check .

## Debian's chromium for the browser tests (never a downloaded browser)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) artifacts .pytest_cache
