# Tandem's entry points (GNU make). The build itself is CMake + Ninja; this file only strings the
# steps together. From a clean clone on Debian 12, as root, with ../shared beside the clone:
#
#   make demo          install dependencies, Release build in build/, run the demo
#   make test          Release tests, ASan+UBSan tests (build-asan/), TSan tests of the parallel
#                      explorer (build-tsan/), fuzz and difftest smoke,
#                      format check
#
# Other targets: deps, build, test-asan, test-tsan, fuzz, difftest, format, format-check, clean, help.
#   make fuzz FUZZ_SECONDS=N         each libFuzzer harness for N s (clang; build-fuzz/)
#   make difftest DIFFTEST_COUNT=N   N random models through every engine (scripts/difftest)
# Build trees are reused: a second run only rebuilds what changed.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := build
# The steps share the machine's cores through ninja -j; make itself runs them one at a time.
.NOTPARALLEL:

NPROC ?= $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
CMAKE ?= cmake
NINJA ?= ninja
CTEST ?= ctest
# Extra arguments for both CMake configure steps, e.g. CMAKE_ARGS=-DCMAKE_CXX_COMPILER=clang++.
CMAKE_ARGS ?=
# A test that runs longer than this (seconds) fails, unless it sets its own TIMEOUT property.
TEST_TIMEOUT ?= 600
CTEST_FLAGS ?= --output-on-failure --no-tests=error --timeout $(TEST_TIMEOUT) -j $(NPROC)

BUILD_DIR := build
ASAN_DIR := build-asan
TSAN_DIR := build-tsan
FUZZ_DIR := build-fuzz

# `make test` runs each fuzzer for FUZZ_SECONDS and DIFFTEST_COUNT random models from
# DIFFTEST_SEED in the quick configuration (docs/testing.md); the targets alone take the same.
FUZZ_SECONDS ?= 15
DIFFTEST_COUNT ?= 50
DIFFTEST_SEED ?= 1
DIFFTEST_ARGS ?= --quick --timeout 5 --z3-timeout 3

DEMO_CMD ?= ./$(BUILD_DIR)/tandem prove models/bakery2.tdm

# Sanitizer run-time options for the tests in build-asan/: the leak checker is on, and any ASan
# or UBSan report ends the process with an error, so the test fails.
ASAN_OPTIONS ?= detect_leaks=1:check_initialization_order=1:abort_on_error=0:halt_on_error=1
UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1
LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0

.PHONY: help deps build demo test test-asan build-asan test-tsan fuzz difftest format format-check clean

help:
	@sed -n '1,9p' $(firstword $(MAKEFILE_LIST)) | sed 's/^# \{0,1\}//'

# `make test` passes DEPS_DONE=1 to its inner make, so the check runs once.
deps:
ifneq ($(DEPS_DONE),1)
	@bash scripts/install-deps.sh
endif

# configure DIR BUILD_TYPE SANITIZE: (re)run CMake for a Ninja tree. Re-running on an existing
# tree is cheap and keeps its objects; a tree made by another generator is started afresh.
define configure
	@if [ -f $(1)/CMakeCache.txt ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' $(1)/CMakeCache.txt; then \
	  echo "make: $(1)/ was configured with another generator; configuring it afresh"; \
	  rm -rf $(1)/CMakeCache.txt $(1)/CMakeFiles; \
	fi
	@[ -d ../shared ] || echo "make: warning: ../shared (spec/, conformance/, external/) is not beside this clone"
	$(CMAKE) -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=$(2) -DTANDEM_SANITIZE=$(3) $(CMAKE_ARGS)
endef

build: deps
	@mkdir -p $(BUILD_DIR)
	$(call configure,$(BUILD_DIR),Release,OFF)
	$(NINJA) -C $(BUILD_DIR) -j $(NPROC)

demo: build
	$(DEMO_CMD)

build-asan: deps
	@mkdir -p $(ASAN_DIR)
	$(call configure,$(ASAN_DIR),Debug,ON)
	$(NINJA) -C $(ASAN_DIR) -j $(NPROC)

test-asan: build-asan
	ASAN_OPTIONS='$(ASAN_OPTIONS)' UBSAN_OPTIONS='$(UBSAN_OPTIONS)' LSAN_OPTIONS='$(LSAN_OPTIONS)' \
	  $(CTEST) --test-dir $(ASAN_DIR) $(CTEST_FLAGS)

# The multi-core explorer under ThreadSanitizer: a small project of its own (tests/tsan/).
TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1
test-tsan: deps
	$(CMAKE) -S tests/tsan -B $(TSAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug $(CMAKE_ARGS)
	$(NINJA) -C $(TSAN_DIR) -j $(NPROC)
	TSAN_OPTIONS='$(TSAN_OPTIONS)' ./$(TSAN_DIR)/tandem_tsan_test

fuzz: deps
	bash scripts/fuzz.sh --seconds $(FUZZ_SECONDS) --build $(FUZZ_DIR) --jobs $(NPROC)

difftest: build
	python3 scripts/difftest --tandem $(BUILD_DIR)/tandem --count $(DIFFTEST_COUNT) \
	  --seed $(DIFFTEST_SEED) --jobs $(NPROC) $(DIFFTEST_ARGS)

# Runs every stage even when one fails, so one run shows all failures; fails if any did.
test: build
	@failed=; start=$$SECONDS; \
	echo "== tests (Release, $(BUILD_DIR)/)"; \
	$(CTEST) --test-dir $(BUILD_DIR) $(CTEST_FLAGS) || failed="$$failed release-tests"; \
	echo "== tests (Debug, ASan+UBSan, $(ASAN_DIR)/)"; \
	$(MAKE) --no-print-directory test-asan DEPS_DONE=1 || failed="$$failed asan-tests"; \
	echo "== tests (ThreadSanitizer, the multi-core explorer, $(TSAN_DIR)/)"; \
	$(MAKE) --no-print-directory test-tsan DEPS_DONE=1 || failed="$$failed tsan-tests"; \
	echo "== fuzz ($(FUZZ_SECONDS) s per harness, $(FUZZ_DIR)/)"; \
	$(MAKE) --no-print-directory fuzz DEPS_DONE=1 || failed="$$failed fuzz"; \
	echo "== differential testing ($(DIFFTEST_COUNT) models from seed $(DIFFTEST_SEED))"; \
	$(MAKE) --no-print-directory difftest DEPS_DONE=1 DIFFTEST_ARGS="$(DIFFTEST_ARGS) --no-minimise" \
	  || failed="$$failed difftest"; \
	echo "== format check"; \
	bash scripts/check-format.sh || failed="$$failed format-check"; \
	if [ -n "$$failed" ]; then \
	  echo "make test: FAILED:$$failed ($$((SECONDS - start))s)"; exit 1; \
	fi; \
	echo "make test: all passed: Release tests, ASan+UBSan tests, TSan tests, fuzz, difftest, format check ($$((SECONDS - start))s)"

format:
	@bash scripts/check-format.sh --fix

format-check:
	@bash scripts/check-format.sh

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR) $(FUZZ_DIR)
