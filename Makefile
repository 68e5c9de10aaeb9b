# remat -- tensor-rematerialization schedules (Moccasin CP on Gecode, Checkmate MILP on CBC)
#
#   make                 build build/remat
#   make check           build and run every test (unit, oracle, sweeps, CLI)
#   make check SANITIZE=1  the same with ASan + UBSan (objects in build/san)
#   make demo            solve a bundled example and draw its pictures
#   make install PREFIX=/usr/local
#   make deps            install the Debian packages we need (as root)
#   make bench-quick     a few-minute benchmark run (bench/table3 --quick)

PREFIX    ?= /usr/local
CC        ?= gcc
CXX       ?= g++
SANITIZE  ?= 0

# Debian 12 packages the build, the tests and the demo need.
DEB_PKGS := build-essential pkg-config libgecode-dev flatzinc minizinc \
            libjansson-dev libcmocka-dev coinor-libcbc-dev libxml2-utils jq \
            python3-torch python3-torchvision python3-onnx

ifeq ($(SANITIZE),1)
BUILD     := build/san
# Gecode's own leaks are suppressed (see the file); remat's are not.
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS := detect_leaks=1
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT       := -O1 -g
else
BUILD     := build
SANFLAGS  :=
OPT       := -O2 -g
endif

WARN      := -Wall -Wextra -Werror
# src/ is one folder per wing, listed bottom-up: a file includes headers of
# its own wing and of the wings before it, never after (tests/layout.sh).
WINGS     := core cp plot gen milp baselines order search batch cli
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

.PHONY: all check unit e2e demo install clean deps deps-check bench-quick

all: $(BIN) $(LIBA)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The annealing's inner loops (plan.c: shifts and scans over every step)
# gain from vectorisation (bench/RESULTS.md, section 9).
ifneq ($(SANITIZE),1)
$(BUILD)/obj/search/plan.o: CFLAGS += -O3
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

$(BUILD)/tests/%: tests/%.c tests/testutil.h tests/oracle.h $(LIB_OBJ) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) -iquote tests $(CFLAGS) -c $< -o $@.tmp.o
	$(CXX) $(LDFLAGS) $@.tmp.o $(LIB_OBJ) $(LIBS) -lcmocka -o $@
	rm -f $@.tmp.o

$(BUILD)/tests:
	mkdir -p $@

-include $(wildcard $(BUILD)/obj/*/*.d)

# ---------------------------------------------------------------- deps
# Installs what is missing when run as root, otherwise prints the command.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------- tests
check: deps
	$(MAKE) --no-print-directory unit e2e

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

e2e: $(BIN)
	@set -e; for t in tests/e2e_*.sh; do echo "== $$t"; REMAT=$(BIN) bash $$t; done

# ---------------------------------------------------------------- demo
demo: deps $(BIN)
	bash scripts/demo.sh $(BIN)

bench-quick: $(BIN)
	bash bench/table3 --quick --remat $(BIN)

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/remat/models
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/remat
	install -m 644 include/remat.h $(DESTDIR)$(PREFIX)/include/remat.h
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libremat.a
	install -m 644 models/*.mzn $(DESTDIR)$(PREFIX)/share/remat/models/
	install -d $(DESTDIR)$(PREFIX)/share/remat/python/remat_bridge
	install -m 755 scripts/remat-torch scripts/remat-onnx $(DESTDIR)$(PREFIX)/bin/
	install -m 644 scripts/remat_bridge/*.py \
	  $(DESTDIR)$(PREFIX)/share/remat/python/remat_bridge/

clean:
	rm -rf build
