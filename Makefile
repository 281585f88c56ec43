# The two commands of the README: `make demo` and `make check`.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo

.PHONY: all deps bench-deps realcode-deps configure build demo check litmus bench bench-kernel realcode deletions clean

all: build

deps:
	@sh scripts/install-deps.sh

configure: deps
	@test -f $(BUILD)/build.ninja || \
	  cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: configure
	@ninja -C $(BUILD)

demo: build
	@sh scripts/demo.sh $(BUILD)

check: build
	@ctest --test-dir $(BUILD) --output-on-failure

litmus: build
	@ninja -C $(BUILD) litmus-long

# The performance figures of docs/performance.md (bench/run.py); BENCH_FLAGS
# takes --quick (a short trial) or --docs docs (copy plots and data there).
BENCH_FLAGS ?=
bench-deps:
	@sh scripts/install-deps.sh --bench

bench: bench-deps build
	@python3 bench/run.py $(BUILD) $(BENCH_FLAGS)

# The Linux kernel as the scale test (bench/kernel/run.py): installs
# linux-source-6.1, builds nine directories with clang once (about 25 min on
# two cores), checks them, and links the plugin's site files of the same
# units to compare (about 10 min more). KERNEL_FLAGS takes the script's
# options.
KERNEL_FLAGS ?=
bench-kernel: build
	@python3 bench/kernel/run.py --barrierpair $(BUILD)/bin/barrierpair \
	  --plugin $(BUILD)/lib/barrierpair.so \
	  --cache $(BUILD)/kernel --json $(BUILD)/kernel/results.json $(KERNEL_FLAGS)

# Findings on real libraries against the budgets of docs/precision.md
# (scripts/realcode.py); REALCODE_FLAGS takes its options and project names.
REALCODE_FLAGS ?=
realcode-deps:
	@sh scripts/install-deps.sh --realcode

# Run on every project (no REALCODE_FLAGS), it also measures recall on
# liburcu (`deletions` below) and fails when fewer than 40 of its barriers'
# deletions are caught at the site or liburcu's own findings pass its budget.
realcode: realcode-deps build
	@python3 scripts/realcode.py --barrierpair $(BUILD)/bin/barrierpair \
	  --cache $(BUILD)/realcode --json $(BUILD)/realcode/results.json $(REALCODE_FLAGS); \
	status=$$?; \
	if [ -z "$(REALCODE_FLAGS)" ]; then \
	  $(MAKE) --no-print-directory deletions \
	    DELETIONS_FLAGS="--min-caught 40 --max-pristine 10 $(DELETIONS_FLAGS)" || status=$$?; \
	fi; \
	exit $$status

# Recall by deletion on liburcu (bench/deletions.py, docs/precision.md): each
# barrier of its src/ and include/urcu/static/ deleted in turn, in a copy of
# the realcode cache's tree (built by scripts/realcode.py when missing).
# DELETIONS_FLAGS takes the script's options, e.g. --set weaken.
DELETIONS_FLAGS ?=
deletions: realcode-deps build
	@source=$$(ls -d $(BUILD)/realcode/liburcu/liburcu-*/ 2>/dev/null | head -n 1); \
	if [ -z "$$source" ] || [ ! -f "$$source/compile_commands.json" ]; then \
	  python3 scripts/realcode.py --barrierpair $(BUILD)/bin/barrierpair \
	    --cache $(BUILD)/realcode liburcu > /dev/null || [ $$? -eq 1 ] || exit 2; \
	  source=$$(ls -d $(BUILD)/realcode/liburcu/liburcu-*/ | head -n 1); \
	fi; \
	python3 bench/deletions.py --barrierpair $(BUILD)/bin/barrierpair "$$source" \
	  --include 'src/*.h' --include 'include/urcu/static/*.h' \
	  --json $(BUILD)/deletions-liburcu.json $(DELETIONS_FLAGS)

clean:
	rm -rf $(BUILD)

# The examples, built with the system compiler and run. A correct version must
# succeed; a broken one prints what its bug did (on x86 only Dekker's shows).
.PHONY: examples docs-pictures
EXAMPLES_CC ?= cc
EXAMPLES_CFLAGS ?= -O2 -pthread -Wall -Wextra
EXAMPLE_SOURCES := $(sort $(wildcard examples/*/correct.c examples/*/broken.c))
EXAMPLE_PROGRAMS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SOURCES))

examples: deps $(EXAMPLE_PROGRAMS)
	@status=0; \
	for example in $(sort $(patsubst examples/%/,%,$(dir $(EXAMPLE_SOURCES)))); do \
	  printf '\n=== %s\n' "$$example"; \
	  for version in correct broken; do \
	    program=$(BUILD)/examples/$$example/$$version; \
	    [ -x "$$program" ] || continue; \
	    if output=$$("$$program" 2>&1); then rc=0; else rc=$$?; fi; \
	    printf '%-8s %s\n' "$$version:" "$$output"; \
	    if [ $$rc -ne 0 ] && [ $$version = correct ]; then \
	      echo "         FAILED (exit status $$rc): a correct example must succeed"; status=1; \
	    elif [ $$rc -ne 0 ]; then \
	      echo "         (exit status $$rc: the bug showed on this machine)"; \
	    fi; \
	  done; \
	done; \
	exit $$status

$(BUILD)/examples/%: examples/%.c
	@mkdir -p $(@D)
	$(EXAMPLES_CC) $(EXAMPLES_CFLAGS) -o $@ $<

# The pictures of docs/pictures/ and the generated sections of
# docs/scenarios.md; RENDER_DOCS_FLAGS=--measure reruns the litmus tests first.
RENDER_DOCS_FLAGS ?=
docs-pictures: build
	@sh scripts/render-docs.sh $(RENDER_DOCS_FLAGS) $(BUILD)
