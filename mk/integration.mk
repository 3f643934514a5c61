# Real-kernel integration tests of adapters/linux (tests/integration), with
# the adapter tests that need no kernel (test_samples.c: the sample drain on
# a perf ring in memory).
#   make itest                        build the test binary and its BPF program
#   make suite-integration            all tests, TAP
#   make suite-integration-valgrind   the same binary under valgrind (quick mode)
#   tests/integration/conservation_loop.sh N   the conservation test N times
# (the suite-* targets are rows of mk/suites.mk)
ITEST_DIR   = $(BUILD)/itest
ITEST_BIN   = $(ITEST_DIR)/rp_itest
ITEST_SRCS  = $(addprefix tests/integration/,main.c itest.c test_perf.c test_ring.c test_buffer.c \
                                               test_samples.c)
ITEST_OBJS  = $(patsubst tests/integration/%.c,$(ITEST_DIR)/%.o,$(ITEST_SRCS))
# The in-memory ring tests (test_samples.c) write records with the unit
# tests' ring builder (its rule is in mk/unit.mk).
ITEST_HELPERS = $(BUILD)/unit/ring_builder.o
ITEST_BPF   = $(BPF_DIR)/itest_emit.bpf.o
ITEST_ENV   = RP_ITEST_BPF=$(ITEST_BPF)
# integration-valgrind: no leak, no invalid access (RP_ITEST_QUICK keeps it short).
# The children some tests fork only _exit(0) (a task for the kernel to
# track); memcheck's leak report at their exit named the parent's live heap
# as lost and went to nobody's exit status, so children are not reported.
ITEST_VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
                 --child-silent-after-fork=yes --suppressions=tests/integration/valgrind.supp

ALL_TARGETS  += $(ITEST_BIN)

.PHONY: itest

itest: $(ITEST_BIN) $(ITEST_BPF)

$(ITEST_DIR)/%.o: tests/integration/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# --wrap=realloc: test_samples.c makes the library's realloc fail on demand
# (the payload drains' copy of a wrapped payload, when no memory is left).
$(ITEST_BIN): $(ITEST_OBJS) $(ITEST_HELPERS) $(BUILD)/lib/libringproof.a
	$(CC) $(ALL_CFLAGS) -Wl,--wrap=realloc -o $@ $(ITEST_OBJS) $(ITEST_HELPERS) \
	    $(BUILD)/lib/libringproof.a $(LIBBPF_LIBS) -pthread

-include $(ITEST_OBJS:.o=.d)
