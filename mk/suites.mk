# The test suites: one row each, in the order `make check` runs them (the
# quick suites first, then the proofs and the fuzz smoke).  Read by make: each
# row becomes a target suite-NAME that builds the row's prerequisites, then
# runs   bash ci/suite.sh NAME [--tap] -- RUNNER   (ci/suite.sh records the
# PASS/FAIL/SKIP lines that ci/check.sh sums).  The Makefile includes this
# file after every other fragment, so a row may name their variables.
#
#   suite    `make suite-NAME`; `make check` runs every row.
#   test     position in `make test`, two digits (01, 02, ...), or - when
#            `make test` does not run it.
#   builds   what make builds before the runner starts, - for nothing (a
#            runner that calls $(MAKE) builds what it needs itself).
#   sources  what the suite tests, for the reader; each word must name an
#            existing file or directory (or a glob that matches one).
#   tap      tap: count the runner's TAP lines; -: it writes its own result
#            lines or counts as one PASS/FAIL by exit status.
#   runner   the command (a recipe: make variables, $$ for the shell).
#
# build-gcc builds into $(BUILD) itself, so that the suites after it find
# their programs built; build-clang into $(BUILD)/clang.
#
# Columns are separated by " | " (so no field may contain "|" or "~~"); spaces
# align them.  The build rules stay in the areas' fragments (mk/unit.mk, ...).
# suite               | test | builds                                   | sources                                      | tap | runner
define SUITES_TABLE
build-gcc             | -    | -                                        | core adapters bpf tools tests bench fuzz     | -   | $(MAKE) --no-print-directory -j$$(nproc) CC=gcc all
build-clang           | -    | -                                        | core adapters bpf tools tests bench fuzz     | -   | $(MAKE) --no-print-directory -j$$(nproc) BUILD=$(BUILD)/clang CC=clang all
unit                  | 10   | $(UNIT_TESTS)                            | tests/unit core                              | tap | bash tests/unit/run.sh $(UNIT_TESTS)
unit-valgrind         | 11   | $(UNIT_TESTS)                            | tests/unit core                              | tap | bash tests/unit/run.sh --valgrind $(UNIT_TESTS)
parsers-unit          | 03   | $(PARSERS_UNIT)                          | tests/parsers/test_parsers.c $(PARSERS_CORE) | tap | env CMOCKA_MESSAGE_OUTPUT=TAP $(PARSERS_UNIT)
ringbuf-unit          | 06   | $(RB_UNIT)                               | tests/ringbuf core                           | tap | env CMOCKA_MESSAGE_OUTPUT=TAP $(RB_UNIT)
integration           | 01   | $(ITEST_BIN) $(ITEST_BPF)                | tests/integration adapters bpf/itest_emit.* tests/unit/ring_builder.* | tap | env $(ITEST_ENV) $(ITEST_BIN)
integration-valgrind  | 02   | $(ITEST_BIN) $(ITEST_BPF)                | tests/integration adapters bpf/itest_emit.* tests/unit/ring_builder.* | tap | env $(ITEST_ENV) RP_ITEST_QUICK=1 $(ITEST_VALGRIND) $(ITEST_BIN)
parsers-integration   | 05   | $(PARSERS_INTEG)                         | tests/parsers/test_kernel.c $(PARSERS_CORE)  | -   | $(PARSERS_INTEG)
ringbuf-integration   | 08   | $(RB_ITEST) $(RB_BPF)                    | tests/ringbuf adapters bpf/ringbuf_test.*    | tap | $(RB_ITEST) $(RB_BPF)
tools                 | 09   | $(TOOLS_BIN) $(TOOLS_TESTS) $(TOOLS_BPF) | tools bpf                                    | tap | bash tools/test/tools.sh $(TOOLS_BIN) $(TOOLS_DIR) $(BPF_DIR)
install-example       | -    | -                                        | mk/install.mk ringproof.pc.in libringproof.symbols libringproof.internal examples | tap | bash examples/test.sh "$(MAKE)" $(BUILD) $(VERSION) $(SOVERSION)
fuzz-regress          | -    | -                                        | fuzz core                                    | -   | $(MAKE) --no-print-directory -j$$(nproc) fuzz-regress
fuzz-msan             | -    | -                                        | fuzz core                                    | -   | $(MAKE) --no-print-directory -j$$(nproc) fuzz-msan
parsers-unit-valgrind | 04   | $(PARSERS_UNIT)                          | tests/parsers/test_parsers.c $(PARSERS_CORE) | tap | bash tests/unit/run.sh --valgrind $(PARSERS_UNIT)
ringbuf-unit-valgrind | 07   | $(RB_UNIT)                               | tests/ringbuf core                           | tap | bash tests/unit/run.sh --valgrind $(RB_UNIT)
user-ring-unit        | 12   | $(UR_UNIT)                               | tests/user_ring core/rp_user_ring.*          | tap | env CMOCKA_MESSAGE_OUTPUT=TAP $(UR_UNIT)
user-ring-unit-valgrind | 13 | $(UR_UNIT)                               | tests/user_ring core/rp_user_ring.*          | tap | bash tests/unit/run.sh --valgrind $(UR_UNIT)
user-ring-integration | 14   | $(UR_ITEST) $(UR_BPF)                    | tests/user_ring adapters/linux/rp_bpf_user_ringbuf.* bpf/user_ring_test.* | tap | $(UR_ITEST) $(UR_BPF)
proofs-cache-unit     | 15   | -                                        | proofs/cache.sh tests/proofs                 | tap | bash tests/proofs/cache_test.sh
proofs-stop-unit      | 16   | -                                        | proofs/stop.sh tests/proofs                  | tap | bash tests/proofs/stop_test.sh
fuzz-oss              | -    | -                                        | fuzz core                                    | -   | $(MAKE) --no-print-directory fuzz-oss
proofs                | -    | -                                        | proofs core                                  | -   | bash proofs/run.sh
proofs-mutants        | -    | -                                        | proofs/mutants core                          | -   | bash proofs/mutants.sh
fuzz-smoke            | -    | -                                        | fuzz core                                    | -   | $(MAKE) --no-print-directory -j$$(nproc) fuzz-smoke
endef

# ---- reading the table (nothing to edit below) ------------------------------
# Each line becomes one word (its spaces turned into ~~), then a field is the
# N-th "|"-separated part with its spaces given back.
suites_empty :=
suites_space := $(suites_empty) $(suites_empty)
suites_tab   := $(suites_empty)	$(suites_empty)
define suites_nl


endef
SUITES_ROWS := $(subst $(suites_nl), ,$(subst $(suites_tab),~~,$(subst $(suites_space),~~,$(value SUITES_TABLE))))
suites_field = $(strip $(subst ~~, ,$(word $(1),$(subst |, ,$(2)))))

# Per row: the phony suite-NAME rule, and SUITES_SOURCES.NAME (expanded
# here, so that a row may name a fragment's variable among its sources).
define suites_rule
.PHONY: suite-$(call suites_field,1,$(1))
suite-$(call suites_field,1,$(1)): $(filter-out -,$(call suites_field,3,$(1)))
	@bash ci/suite.sh $(call suites_field,1,$(1)) $(if $(filter tap,$(call suites_field,5,$(1))),--tap )-- $(call suites_field,6,$(1))
SUITES_SOURCES.$(call suites_field,1,$(1)) := $(call suites_field,4,$(1))
endef
$(foreach r,$(SUITES_ROWS),$(eval $(call suites_rule,$(r))))

SUITES_NAMES := $(foreach r,$(SUITES_ROWS),$(call suites_field,1,$(r)))
# A sources word that names nothing means the table is out of date.
$(foreach n,$(SUITES_NAMES),$(foreach w,$(SUITES_SOURCES.$(n)),$(if $(wildcard $(w)),,\
  $(error mk/suites.mk: suite $(n): no file or directory matches '$(w)'))))

# make test: the rows with a position, in that order ("03:parsers-unit" ...).
SUITES_TEST  := $(foreach p,$(sort $(foreach r,$(SUITES_ROWS),$(if $(filter-out -,$(call suites_field,2,$(r))),\
                  $(call suites_field,2,$(r)):$(call suites_field,1,$(r))))),$(lastword $(subst :, ,$(p))))
CHECK_SUITES := $(SUITES_NAMES)
TEST_SUITES  := $(SUITES_TEST)
