# Fuzzing (fuzz/README.md).  Every fuzz/harness_<name>.c is one harness; each
# builds five ways, with the core compiled for it (not the -Werror library build):
#   $(BUILD)/fuzz/libfuzzer/<name>  clang -fsanitize=fuzzer,address,undefined
#   $(BUILD)/fuzz/afl/<name>        afl-clang-fast + fuzz/afl_driver.c, ASan+UBSan
#   $(BUILD)/fuzz/replay/<name>     gcc + fuzz/replay_main.c, ASan+UBSan
#   $(BUILD)/fuzz/msan/<name>       clang + fuzz/replay_main.c, MemorySanitizer
#   $(BUILD)/fuzz/cov/<name>        clang source coverage + fuzz/replay_main.c
# Optional fuzz/harness_<name>.flags: extra compiler flags for that harness
# (and the core compiled into it), one shell word each.
# Optional fuzz/harness_<name>.srcs: extra sources compiled into that harness
# (paths from the top of the tree, e.g. an adapter's .c), one word each.
# Suites fuzz-regress, fuzz-msan, fuzz-oss, fuzz-smoke: rows of mk/suites.mk.

FUZZ_HARNESSES := $(sort $(patsubst fuzz/harness_%.c,%,$(wildcard fuzz/harness_*.c)))
FUZZ_COMMON    := fuzz/fz_util.c fuzz/fz_oracle.c fuzz/ref_decoder.c
FUZZ_CLANG     ?= clang
FUZZ_GCC       ?= gcc
FUZZ_AFL_CC    ?= afl-clang-fast
# 12 s: 12 harnesses x 2 engines x 12 s / 2 jobs = 144 s, 1 s over the 143 s
# of 11 harnesses at 13 s (150 s with 10 at 15 s; make check's 20-minute
# budget).  11 s would be 132 s.
FUZZ_SMOKE_SECONDS ?= 12
FUZZ_SECONDS   ?= 600
ENGINE         ?= libfuzzer
HARNESS        ?= ring_raw

FZ_CORE_SRCS = $(sort $(wildcard core/*.c))
FZ_CFLAGS    = -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
               -Icore -Ifuzz
FZ_SAN       = -fsanitize=address,undefined -fno-sanitize-recover=all
# MemorySanitizer cannot share a build with ASan; it reports a branch or a
# call on a byte nobody wrote (an output field a walk left unset on some path
# and the oracle then reads), with the origin of the byte.
FZ_MSAN      = -fsanitize=memory -fsanitize-memory-track-origins
fz_flags     = $(foreach w,$(shell cat fuzz/harness_$(1).flags 2>/dev/null),'$(w)')
fz_extra     = $(shell cat fuzz/harness_$(1).srcs 2>/dev/null)

FUZZ_LF_BINS     = $(addprefix $(BUILD)/fuzz/libfuzzer/,$(FUZZ_HARNESSES))
FUZZ_AFL_BINS    = $(addprefix $(BUILD)/fuzz/afl/,$(FUZZ_HARNESSES))
FUZZ_REPLAY_BINS = $(addprefix $(BUILD)/fuzz/replay/,$(FUZZ_HARNESSES))
FUZZ_MSAN_BINS   = $(addprefix $(BUILD)/fuzz/msan/,$(FUZZ_HARNESSES))
FUZZ_COV_BINS    = $(addprefix $(BUILD)/fuzz/cov/,$(FUZZ_HARNESSES))
FUZZ_TOOLS       = $(BUILD)/fuzz/gen_seeds $(BUILD)/fuzz/capture

ALL_TARGETS  += $(FUZZ_TOOLS)

# The sources the harnesses share (the core, fuzz/fz_*.c, the reference
# decoder, a .srcs file's adapters, the drivers) are compiled once per way
# and set of extra flags, into $(BUILD)/fuzz/obj/<way>-<key>/ (key: the
# first 8 hex digits of the .flags file's MD5, or "plain"); each harness's
# own file is compiled into its link.  Compiling the core into each binary
# instead made `make fuzz-build` (36 binaries) take 91 s on 2 cores; shared,
# 41 s.  Every object depends on every header, fuzz/*.h and this file
# (coarse, but never stale).
fz_key      = $(if $(wildcard fuzz/harness_$(1).flags),$(shell md5sum < fuzz/harness_$(1).flags | cut -c1-8),plain)
fz_shared   = $(FUZZ_COMMON) $(FZ_CORE_SRCS) $(call fz_extra,$(1))
fz_objs     = $(addprefix $(BUILD)/fuzz/obj/$(2)-$(call fz_key,$(1))/,$(patsubst %.c,%.o,$(call fz_shared,$(1)) $(3)))
FZ_OBJ_DEPS = $(wildcard core/*.h fuzz/*.h adapters/linux/*.h) mk/fuzz.mk
# How each way compiles a shared object (libFuzzer's instrumentation without
# its main, which the harness's link adds).
FZ_WAY_libfuzzer = $(FUZZ_CLANG) $(FZ_CFLAGS) $(FZ_SAN) -fsanitize=fuzzer-no-link
FZ_WAY_afl       = AFL_QUIET=1 $(FUZZ_AFL_CC) $(FZ_CFLAGS) $(FZ_SAN)
FZ_WAY_replay    = $(FUZZ_GCC) $(FZ_CFLAGS) $(FZ_SAN)
FZ_WAY_msan      = $(FUZZ_CLANG) $(FZ_CFLAGS) $(FZ_MSAN)
FZ_WAY_cov       = $(FUZZ_CLANG) $(FZ_CFLAGS) -fprofile-instr-generate -fcoverage-mapping
FZ_WAYS          = libfuzzer afl replay msan cov

# One pattern rule per way and key (the first harness with that key gives
# the flags: the key is their MD5).
define fz_obj_rule
$(BUILD)/fuzz/obj/$(1)-$(call fz_key,$(2))/%.o: %.c $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(2).flags)
	@mkdir -p $$(dir $$@)
	$(FZ_WAY_$(1)) $$(call fz_flags,$(2)) -c $$< -o $$@
endef
fz_keys_seen :=
$(foreach h,$(FUZZ_HARNESSES),$(if $(filter $(call fz_key,$(h)),$(fz_keys_seen)),,\
  $(eval fz_keys_seen += $(call fz_key,$(h)))$(foreach w,$(FZ_WAYS),$(eval $(call fz_obj_rule,$(w),$(h))))))

# One set of rules per harness (eval, so that a harness's .flags file is a
# prerequisite without turning on secondary expansion for every fragment).
define fz_harness_rules
$(BUILD)/fuzz/libfuzzer/$(1): fuzz/harness_$(1).c $(call fz_objs,$(1),libfuzzer) $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(1).flags fuzz/harness_$(1).srcs)
	@mkdir -p $$(dir $$@)
	$(FUZZ_CLANG) $(FZ_CFLAGS) $(FZ_SAN) -fsanitize=fuzzer $$(call fz_flags,$(1)) -o $$@ fuzz/harness_$(1).c $(call fz_objs,$(1),libfuzzer)

$(BUILD)/fuzz/afl/$(1): fuzz/harness_$(1).c $(call fz_objs,$(1),afl,fuzz/afl_driver.c) $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(1).flags fuzz/harness_$(1).srcs)
	@mkdir -p $$(dir $$@)
	$(FZ_WAY_afl) $$(call fz_flags,$(1)) -o $$@ fuzz/harness_$(1).c $(call fz_objs,$(1),afl,fuzz/afl_driver.c)

$(BUILD)/fuzz/replay/$(1): fuzz/harness_$(1).c $(call fz_objs,$(1),replay,fuzz/replay_main.c) $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(1).flags fuzz/harness_$(1).srcs)
	@mkdir -p $$(dir $$@)
	$(FZ_WAY_replay) $$(call fz_flags,$(1)) -o $$@ fuzz/harness_$(1).c $(call fz_objs,$(1),replay,fuzz/replay_main.c)

$(BUILD)/fuzz/msan/$(1): fuzz/harness_$(1).c $(call fz_objs,$(1),msan,fuzz/replay_main.c) $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(1).flags fuzz/harness_$(1).srcs)
	@mkdir -p $$(dir $$@)
	$(FZ_WAY_msan) $$(call fz_flags,$(1)) -o $$@ fuzz/harness_$(1).c $(call fz_objs,$(1),msan,fuzz/replay_main.c)

$(BUILD)/fuzz/cov/$(1): fuzz/harness_$(1).c $(call fz_objs,$(1),cov,fuzz/replay_main.c) $(FZ_OBJ_DEPS) $(wildcard fuzz/harness_$(1).flags fuzz/harness_$(1).srcs)
	@mkdir -p $$(dir $$@)
	$(FZ_WAY_cov) $$(call fz_flags,$(1)) -o $$@ fuzz/harness_$(1).c $(call fz_objs,$(1),cov,fuzz/replay_main.c)
endef
$(foreach h,$(FUZZ_HARNESSES),$(eval $(call fz_harness_rules,$(h))))

# Seed generator and kernel capture tool: ordinary programs, built by `make`.
$(BUILD)/fuzz/gen_seeds: fuzz/gen_seeds.c fuzz/fz_util.c fuzz/fz_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ifuzz $(ALL_CFLAGS) -o $@ fuzz/gen_seeds.c fuzz/fz_util.c

$(BUILD)/fuzz/capture: fuzz/capture.c fuzz/fz_util.c fuzz/fz_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ifuzz $(ALL_CFLAGS) -o $@ fuzz/capture.c fuzz/fz_util.c

.PHONY: fuzz-build fuzz-replay fuzz-regress fuzz-msan fuzz-smoke fuzz fuzz-cov fuzz-mutants fuzz-seeds \
        fuzz-capture fuzz-minimize fuzz-fold fuzz-oss

fuzz-build: $(FUZZ_LF_BINS) $(FUZZ_AFL_BINS) $(FUZZ_REPLAY_BINS)
fuzz-replay: $(FUZZ_REPLAY_BINS)

fuzz-regress: $(FUZZ_REPLAY_BINS)
	@BUILD=$(BUILD) bash fuzz/regress.sh $(FUZZ_HARNESSES)

fuzz-msan: $(FUZZ_MSAN_BINS)
	@BUILD=$(BUILD) FUZZ_REPLAY=msan bash fuzz/regress.sh $(FUZZ_HARNESSES)

fuzz-smoke: $(FUZZ_LF_BINS) $(FUZZ_AFL_BINS)
	@BUILD=$(BUILD) FUZZ_SMOKE_SECONDS=$(FUZZ_SMOKE_SECONDS) bash fuzz/smoke.sh $(FUZZ_HARNESSES)

fuzz: $(BUILD)/fuzz/$(ENGINE)/$(HARNESS)
	@BUILD=$(BUILD) bash fuzz/campaign.sh $(ENGINE) $(HARNESS) $(FUZZ_SECONDS)

# make fuzz-minimize [FUZZ_MIN_HARNESSES="ring_raw ..."] (default: every harness)
FUZZ_MIN_HARNESSES ?= $(FUZZ_HARNESSES)
fuzz-minimize: $(addprefix $(BUILD)/fuzz/libfuzzer/,$(FUZZ_MIN_HARNESSES))
	@BUILD=$(BUILD) bash fuzz/minimize.sh $(FUZZ_MIN_HARNESSES)

# make fuzz-fold [FUZZ_MIN_HARNESSES="ring_raw ..."]: add only the finds that
# reach a new edge, keeping every committed input (fuzz/fold.sh)
fuzz-fold: $(addprefix $(BUILD)/fuzz/libfuzzer/,$(FUZZ_MIN_HARNESSES))
	@BUILD=$(BUILD) bash fuzz/fold.sh $(FUZZ_MIN_HARNESSES)

fuzz-cov: $(FUZZ_COV_BINS)
	@BUILD=$(BUILD) bash fuzz/cov.sh $(FUZZ_HARNESSES)

fuzz-mutants:
	@BUILD=$(BUILD) bash fuzz/mutants.sh

fuzz-seeds: $(BUILD)/fuzz/gen_seeds
	$(BUILD)/fuzz/gen_seeds fuzz/corpus

fuzz-capture: $(BUILD)/fuzz/capture
	$(BUILD)/fuzz/capture fuzz/corpus

# OSS-Fuzz / ClusterFuzzLite entry (fuzz/oss-fuzz-build.sh), built with
# libFuzzer and each fuzzer run OSS_FUZZ_SECONDS on its seed zip: a check that
# the build, options and seeds load and run (finding bugs is fuzz-smoke's job),
# 2 s each so that 12 harnesses keep make check within 20 minutes.
OSS_FUZZ_SECONDS ?= 2
fuzz-oss:
	@BUILD=$(BUILD) OSS_FUZZ_SECONDS=$(OSS_FUZZ_SECONDS) bash fuzz/oss-fuzz-check.sh
