# remat -- tensor-rematerialization schedules (Moccasin CP on Gecode, Checkmate MILP on CBC)
#
#   make                 build build/remat
#   make check           build and run every test (unit, oracle, sweeps, CLI)
#   make check SANITIZE=1  the same with ASan + UBSan (objects in build/san)
#   make test-NAME       one test (tests/NAME.c or tests/NAME.sh)
#   make coverage        the tests with gcov (build/cov), then src/'s line coverage
#   make demo            solve a bundled example and draw its pictures
#   make install PREFIX=/usr/local
#   make pylib           build/pic/libremat.so and build/pic/remat for the
#                        Python package (`pip install .` runs it)
#   make pyenv           build/venv: the pinned Python test environment with
#                        the package installed (make check makes it)
#   make deps            install the Debian packages we need (as root)
#   make bench-quick     a few-minute benchmark run (bench/table3 --quick)

PREFIX    ?= /usr/local
CC        ?= gcc
CXX       ?= g++
SANITIZE  ?= 0
COVERAGE  ?= 0

# Debian packages (12 and 13) the build, the tests and the demo need;
# clang's runtime (the fuzzers, `make fuzz`) is named after its version,
# found once clang is installed.  Python packages are pinned in
# requirements/ and go into build/venv.
DEB_PKGS := build-essential pkg-config libgecode-dev flatzinc minizinc \
            libjansson-dev libcmocka-dev coinor-libcbc-dev coinor-cbc \
            libxml2-utils jq python3-venv clang munge slurmctld slurmd slurm-client

ifeq ($(COVERAGE),1)
# make coverage: gcov's counters, objects in build/cov (updated atomically:
# the solver's threads would otherwise race on them)
BUILD     := build/cov
SANFLAGS  := --coverage -fprofile-update=atomic
OPT       := -O1 -g
else ifeq ($(SANITIZE),1)
BUILD     := build/san
# Gecode's own leaks are suppressed (see the file); remat's are not.
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS := detect_leaks=1
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
# gcc's undefined has every integer check it offers, but not
# float-cast-overflow (a double out of an integer's range).
SANFLAGS  := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined,float-cast-overflow
OPT       := -O1 -g
else ifeq ($(PIC),1)
# make pylib: position-independent objects in build/pic for the shared
# library the Python package loads (and the remat command it installs)
BUILD     := build/pic
SANFLAGS  := -fPIC
OPT       := -O2 -g
else
BUILD     := build
SANFLAGS  :=
OPT       := -O2 -g
endif

WARN      := -Wall -Wextra -Werror
# src/ is one folder per wing, listed bottom-up: a file includes headers of
# its own wing and of the wings before it, never after (tests/layout.sh).
WINGS     := core cp plot gen milp baselines order hier heuristics freeorder portfolio batch cli
CPPFLAGS  += -iquote include $(WINGS:%=-iquote src/%) -I/usr/include/coin -D_GNU_SOURCE
CFLAGS    := -std=c11 $(OPT) $(WARN) $(SANFLAGS) $(EXTRA_CFLAGS)
CXXFLAGS  := -std=c++17 $(OPT) $(WARN) -Wno-unused-parameter $(SANFLAGS) $(EXTRA_CFLAGS)
LDFLAGS   += $(SANFLAGS)
GECODE_LIBS := -lgecodeflatzinc -lgecodedriver -lgecodefloat -lgecodeset \
               -lgecodeminimodel -lgecodesearch -lgecodeint -lgecodekernel \
               -lgecodesupport
LIBS      := $(GECODE_LIBS) -lCbcSolver -lCbc -lCgl -lOsiClp -lClp -lOsi -lCoinUtils \
             -ljansson -lpthread -lm

# The library is every wing but cli/; the binary adds cli/.
LIB_C     := $(foreach w,$(filter-out cli,$(WINGS)),$(wildcard src/$(w)/*.c))
LIB_CXX   := $(foreach w,$(filter-out cli,$(WINGS)),$(wildcard src/$(w)/*.cpp))
CLI_C     := $(wildcard src/cli/*.c)
LIB_OBJ   := $(LIB_C:src/%.c=$(BUILD)/obj/%.o) $(LIB_CXX:src/%.cpp=$(BUILD)/obj/%.o)
CLI_OBJ   := $(CLI_C:src/%.c=$(BUILD)/obj/%.o)
BIN       := $(BUILD)/remat
LIBA      := $(BUILD)/libremat.a

UNIT_SRC  := $(wildcard tests/unit_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/%.c=$(BUILD)/tests/%)

.DELETE_ON_ERROR:

.PHONY: all check tests unit e2e coverage demo install clean deps deps-check bench-quick pylib deps-install pyenv

all: $(BIN) $(LIBA)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The annealings' inner loops (plan.c, seq_eval.c: shifts and scans over
# every step) gain from vectorisation (bench/RESULTS.md#anneal-incremental,
# #seq-anneal-incremental).
ifneq ($(SANITIZE),1)
$(BUILD)/obj/heuristics/plan.o $(BUILD)/obj/freeorder/seq_eval.o: CFLAGS += -O3
endif

$(BUILD)/obj/%.o: src/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -MMD -MP -c $< -o $@

# libremat.a exports the public API (include/remat.h) only: the library's
# objects are linked into one relocatable object whose other symbols are
# made local.  The binary and the tests link the objects themselves.
$(LIBA): $(LIB_OBJ)
	rm -f $@ $(BUILD)/remat-lib.o
	ld -r -o $(BUILD)/remat-lib.o $^
	objcopy --wildcard --keep-global-symbol='remat_*' $(BUILD)/remat-lib.o
	ar rcs $@ $(BUILD)/remat-lib.o

$(BIN): $(CLI_OBJ) $(LIB_OBJ)
	$(CXX) $(LDFLAGS) $^ $(LIBS) -o $@

# libremat.so (PIC=1): the same objects, only the public API (remat_*)
# exported, as libremat.a does.
$(BUILD)/libremat.so: $(LIB_OBJ) include/remat.map
	$(CXX) -shared $(LDFLAGS) -Wl,--version-script=include/remat.map \
	  $(LIB_OBJ) $(LIBS) -o $@

# The Python package's native part (setup.py runs this): build/pic/
# libremat.so and build/pic/remat.
pylib:
	$(MAKE) --no-print-directory PIC=1 build/pic/libremat.so build/pic/remat

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB_OBJ) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) -iquote tests $(CFLAGS) -c $< -o $@.tmp.o
	$(CXX) $(LDFLAGS) $@.tmp.o $(LIB_OBJ) $(LIBS) -lcmocka -o $@
	rm -f $@.tmp.o

$(BUILD)/tests:
	mkdir -p $@

-include $(wildcard $(BUILD)/obj/*/*.d)

# ---------------------------------------------------------------- fuzz
# tests/fuzz/fuzz_*.c: one libFuzzer target per reader.  `make fuzz` builds
# them with clang (ASan + UBSan) in build/fuzz and runs each for FUZZ_S
# seconds from its committed corpus (tests/fuzz/corpus/NAME); what crashes
# goes to build/fuzz/crashes/NAME and, once fixed, into
# tests/fuzz/crashes/NAME.  `make check` replays both directories on the
# normal build (build/tests/replay_NAME).
FUZZ_S    ?= 60
FUZZ_CC   ?= clang
FUZZ_CXX  ?= clang++
FUZZ_SAN  := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES:= $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_OBJ  := $(LIB_C:src/%.c=build/fuzz/obj/%.o) $(LIB_CXX:src/%.cpp=build/fuzz/obj/%.o)
FUZZ_BIN  := $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
REPLAY_BIN:= $(FUZZ_NAMES:%=$(BUILD)/tests/replay_%)

.PHONY: fuzz fuzz-build replay prop

# tests/prop_claims.c: every claim (optimal, infeasible, lower bound) of
# every command on random tiny graphs at every scale against an exhaustive
# search; PROP_CASES cases in make check (more: `make prop PROP_CASES=10000`),
# then PROP_LARGE layered graphs of 15 to 40 nodes against every schedule
# the commands found (`--large`).
PROP_CASES ?= 40
PROP_LARGE ?= 3
PROP_SEED  ?= 1

$(BUILD)/tests/prop_claims: tests/prop_claims.c tests/exhaustive.h tests/oracle.h $(LIB_OBJ) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) -iquote tests $(CFLAGS) -c $< -o $@.o
	$(CXX) $(LDFLAGS) $@.o $(LIB_OBJ) $(LIBS) -o $@
	rm -f $@.o

prop: $(BIN) $(BUILD)/tests/prop_claims
	REMAT=$(BIN) $(BUILD)/tests/prop_claims --cases $(PROP_CASES) --seed $(PROP_SEED)
	REMAT=$(BIN) $(BUILD)/tests/prop_claims --large --cases $(PROP_LARGE) --seed $(PROP_SEED) --time-limit 2

build/fuzz/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 -O1 -g $(WARN) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

build/fuzz/obj/%.o: src/%.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(CPPFLAGS) -std=c++17 -O1 -g $(WARN) -Wno-unused-parameter -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(CPPFLAGS) -iquote tests/fuzz -std=c11 -O1 -g $(WARN) -fsanitize=fuzzer $(FUZZ_SAN) -c $< -o $@.o
	$(FUZZ_CXX) -fsanitize=fuzzer $(FUZZ_SAN) $@.o $(FUZZ_OBJ) $(LIBS) -o $@
	rm -f $@.o

fuzz-build: $(FUZZ_BIN)

fuzz: fuzz-build
	@bad=""; for t in $(FUZZ_NAMES); do \
	  mkdir -p build/fuzz/corpus/$$t build/fuzz/crashes/$$t; \
	  if build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_S) -max_len=65536 -timeout=20 \
	      -rss_limit_mb=4096 -artifact_prefix=build/fuzz/crashes/$$t/ \
	      build/fuzz/corpus/$$t tests/fuzz/corpus/$$t >build/fuzz/$$t.log 2>&1; then \
	    echo "fuzz_$$t: $$(grep -E '^Done [0-9]+ runs' build/fuzz/$$t.log | tail -1)"; \
	  else \
	    echo "fuzz_$$t: FAILED (build/fuzz/$$t.log, input in build/fuzz/crashes/$$t/)"; \
	    grep -E "ERROR|runtime error|invariant broken" build/fuzz/$$t.log | head -3; \
	    bad="$$bad $$t"; \
	  fi; \
	done; test -z "$$bad" || { echo "fuzz: failures in:$$bad"; exit 1; }

$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(LIB_OBJ) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) -iquote tests/fuzz $(CFLAGS) -c $< -o $@.t.o
	$(CC) $(CPPFLAGS) -iquote tests/fuzz $(CFLAGS) -c tests/fuzz/replay.c -o $@.r.o
	$(CXX) $(LDFLAGS) $@.t.o $@.r.o $(LIB_OBJ) $(LIBS) -o $@
	rm -f $@.t.o $@.r.o

replay:
	$(call run_tests,$(REPLAY_NAMES))

# ---------------------------------------------------------------- deps
# Installs what is missing when run as root, otherwise prints the command.
deps:
	@$(MAKE) --no-print-directory deps-install PKGS="$(DEB_PKGS)"
	@$(MAKE) --no-print-directory deps-install PKGS="$$(clang --version 2>/dev/null | \
	  sed -n 's/.*clang version \([0-9]*\).*/libclang-rt-\1-dev/p')"

deps-install:
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------- tests
# Every unit binary, e2e script, fuzz corpus replay, prop_claims and the
# layout check is a target of its own, test-NAME, and they run in
# parallel: -j$(TEST_JOBS) (the number of cores) unless make runs with -j
# already.  A test's output
# goes to $(BUILD)/tests/NAME.log, printed when it fails; a summary line
# ends the run.
UNIT_NAMES := $(UNIT_SRC:tests/%.c=%)
E2E_NAMES  := $(patsubst tests/%.sh,%,$(wildcard tests/e2e_*.sh))
REPLAY_NAMES := $(FUZZ_NAMES:%=replay_%)
# the longest start first, else one of them may start last
SLOW_TESTS := e2e_slurm e2e_solve e2e_milp e2e_batch prop_claims unit_sweep unit_window unit_milp
test_order  = $(filter $(1),$(SLOW_TESTS)) $(filter-out $(SLOW_TESTS),$(1))
TESTS      := $(call test_order,$(UNIT_NAMES) $(E2E_NAMES) $(REPLAY_NAMES) prop_claims layout)
TLOG       := $(BUILD)/tests
TEST_JOBS  ?= $(shell nproc)
TEST_TIMEOUT ?= 1800

.PHONY: $(TESTS:%=test-%)

# run_test NAME,COMMAND: PASS or FAIL (then the log) on the terminal, the
# same line in $(TLOG)/NAME.result
define run_test
@t0=$$(date +%s); \
if timeout -k 10 $(TEST_TIMEOUT) $(2) >$(TLOG)/$(1).log 2>&1; then r=PASS; else r="FAIL (exit $$?)"; fi; \
r="$$r $(1) $$(($$(date +%s) - t0)) s"; echo "$$r" >$(TLOG)/$(1).result; echo "$$r"; \
case $$r in PASS*) ;; *) sed 's/^/  | /' $(TLOG)/$(1).log; echo "  (log: $(TLOG)/$(1).log)"; exit 1 ;; esac
endef

$(UNIT_NAMES:%=test-%): test-%: $(BUILD)/tests/%
	$(call run_test,$*,$<)

$(E2E_NAMES:%=test-%): test-%: tests/%.sh tests/lib.sh $(BIN) | $(TLOG)
	$(call run_test,$*,env REMAT=$(BIN) T_SLOW=$(if $(filter 1,$(SANITIZE) $(COVERAGE)),3,1) bash $<)

$(REPLAY_NAMES:%=test-%): test-replay_%: $(BUILD)/tests/replay_%
	$(call run_test,replay_$*,$< tests/fuzz/corpus/$* $$(ls -d tests/fuzz/crashes/$* 2>/dev/null))

# ---------------------------------------------------------------- python
# The Python package's tests run against the package as `pip install .`
# installs it, in build/venv with the pinned requirements
# (requirements/test.txt: PyTorch 2, torchvision, ONNX, pytest, atheris),
# from outside the source tree so that `import remat` is the installed one.
PYTHON    ?= python3
PYENV     := build/venv
PY_SRC    := $(shell find python/remat -name '*.py') pyproject.toml setup.py
# the larger models' tests (minutes each): make check PYTEST_MARKS=
PYTEST_MARKS ?= not slow

$(PYENV)/.requirements: requirements/test.txt
	rm -rf $(PYENV)
	$(PYTHON) -m venv $(PYENV)
	$(PYENV)/bin/pip install -q -r requirements/test.txt
	touch $@

$(PYENV)/.installed: $(PYENV)/.requirements $(PY_SRC) $(LIB_C) $(LIB_CXX) $(CLI_C)
	$(PYENV)/bin/pip install -q --no-deps --force-reinstall .
	touch $@

pyenv: $(PYENV)/.installed

test-pytest: $(PYENV)/.installed | $(TLOG)
	$(call run_test,pytest,sh -c 'cd $(TLOG) && $(CURDIR)/$(PYENV)/bin/python -m pytest -q -p no:cacheprovider -m "$(PYTEST_MARKS)" --rootdir=$(CURDIR) $(CURDIR)/python/tests')

test-e2e_torch: $(PYENV)/.installed
test-e2e_torch: export REMAT_PY := $(CURDIR)/$(PYENV)/bin/python

# src/'s layout rules (docs/architecture.md); the calls from the objects
test-layout: tests/layout.sh $(LIB_OBJ) $(CLI_OBJ) | $(TLOG)
	$(call run_test,layout,bash $< . $(BUILD)/obj)

test-prop_claims: $(BUILD)/tests/prop_claims $(BIN)
	$(call run_test,prop_claims,sh -c 'REMAT=$(BIN) $< --cases $(PROP_CASES) --seed $(PROP_SEED) && REMAT=$(BIN) $< --large --cases $(PROP_LARGE) --seed $(PROP_SEED) --time-limit 2')

# run_tests NAMES: their targets, all of them (-k), then the summary
define run_tests
+@start=$$(date +%s); rm -f $(1:%=$(TLOG)/%.result); \
case "$$MAKEFLAGS" in *-j*|*jobserver*) j= ;; *) j=-j$(TEST_JOBS) ;; esac; \
$(MAKE) --no-print-directory -k -Otarget $$j $(1:%=test-%) || true; \
pass=0; failed=""; \
for t in $(1); do \
  if grep -qs '^PASS' $(TLOG)/$$t.result; then pass=$$((pass + 1)); else failed="$$failed $$t"; fi; \
done; \
echo "tests: $$pass passed, $$(echo $$failed | wc -w) failed$${failed:+:$$failed} ($$(($$(date +%s) - start)) s)"; \
[ -z "$$failed" ]
endef

# The Python tests run after the others, not beside them: PyTorch takes
# both cores, and several e2e tests check time limits.
check: deps
	$(call run_tests,$(TESTS))
	$(call run_tests,pytest)

tests:
	$(call run_tests,$(TESTS))
	$(call run_tests,pytest)

unit:
	$(call run_tests,$(call test_order,$(UNIT_NAMES)))

e2e:
	$(call run_tests,$(call test_order,$(E2E_NAMES)))

# ------------------------------------------------------------- coverage
# The tests on a build with gcov's counters (build/cov, fresh counters),
# then the line coverage of src/: gcovr (Debian package gcovr) if it is
# there, else gcov and a sum over the .c files.  Exits 1 if a test failed.
coverage:
	@find build/cov -name '*.gcda' -delete 2>/dev/null || true
	@$(MAKE) --no-print-directory COVERAGE=1 tests; rc=$$?; \
	if command -v gcovr >/dev/null; then \
	  gcovr --root . --filter 'src/' --object-directory build/cov/obj --print-summary \
	    --gcov-ignore-parse-errors \
	    --txt build/cov/coverage.txt build/cov/obj | grep -E '^(lines|functions|branches):'; \
	  echo "per file: build/cov/coverage.txt"; \
	else \
	  for d in build/cov/obj/*/; do w=$$(basename $$d); \
	    gcov -n -o $$d src/$$w/*.c src/$$w/*.cpp 2>/dev/null; done | \
	  awk -F"[:% ]+" '/^File .src\/.*\.c(pp)?.$$/ { f = 1; next } \
	    f && /^Lines executed/ { hit += $$3 * $$5 / 100; all += $$5; f = 0 } \
	    END { printf "lines: %.1f%% (%d out of %d)\n", 100 * hit / all, hit + 0.5, all }'; \
	fi; exit $$rc

# ---------------------------------------------------------------- demo
demo: deps $(BIN)
	bash scripts/demo.sh $(BIN)

bench-quick: $(BIN)
	bash bench/table3 --quick --remat $(BIN)

install: $(BIN) $(LIBA)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/remat/models
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/remat
	install -m 644 include/remat.h $(DESTDIR)$(PREFIX)/include/remat.h
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libremat.a
	install -m 644 models/*.mzn $(DESTDIR)$(PREFIX)/share/remat/models/

clean:
	rm -rf build
