# ringproof: the one entry point.  See README.md.
#   make            build libringproof.a / .so (and everything else that builds)
#   make run        the main job (the ringproof CLI on a built-in default)
#   make check      install missing Debian packages (as root), then all tests
#   make test       unit + integration tests only
#   make proofs     Frama-C/WP over core/
# Each area adds its own rules in mk/<area>.mk; `make check` runs every suite
# named in CHECK_SUITES and sums their results (ci/check.sh).

BUILD      ?= build
CC         ?= cc
VERSION     = 0.1.0
SOVERSION   = 0
PREFIX     ?= /usr/local

WARN        = -std=c11 -Wall -Wextra -Werror -Wvla -Wshadow
OPT        ?= -O2 -g
CFLAGS     ?=
CPPFLAGS   += -D_GNU_SOURCE -Icore -Iadapters/linux
ALL_CFLAGS  = $(WARN) $(OPT) $(CFLAGS)
RESULTS     = $(BUILD)/results

CORE_SRCS   = $(sort $(wildcard core/*.c))
LIB_SRCS    = $(CORE_SRCS)
LIB_LIBS    =
ALL_TARGETS =
CHECK_SUITES =
TEST_SUITES =

.PHONY: all check test proofs run clean install print-suites print-test-suites lib
all: lib

include $(sort $(wildcard mk/*.mk))

LIB_OBJS    = $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
LIB_PIC     = $(patsubst %.c,$(BUILD)/pic/%.o,$(LIB_SRCS))
LIB_A       = $(BUILD)/lib/libringproof.a
LIB_SO      = $(BUILD)/lib/libringproof.so.$(VERSION)

lib: $(LIB_A) $(LIB_SO) $(ALL_TARGETS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=default -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_PIC)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libringproof.so.$(SOVERSION) -o $@ $^ $(LIB_LIBS)
	ln -sf libringproof.so.$(VERSION) $(BUILD)/lib/libringproof.so.$(SOVERSION)
	ln -sf libringproof.so.$(SOVERSION) $(BUILD)/lib/libringproof.so

-include $(LIB_OBJS:.o=.d) $(LIB_PIC:.o=.d)

check:
	@bash ci/check.sh $(CHECK_SUITES)

test:
	@bash ci/check.sh --no-deps $(TEST_SUITES)

print-suites:
	@echo $(CHECK_SUITES)

clean:
	rm -rf $(BUILD)
