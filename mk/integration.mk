# Real-kernel integration tests of adapters/linux (tests/integration).
#   make suite-integration            all tests, TAP
#   make suite-integration-valgrind   the same binary under valgrind (quick mode)
#   tests/integration/conservation_loop.sh N   the conservation test N times
ITEST_DIR   = $(BUILD)/itest
ITEST_BIN   = $(ITEST_DIR)/rp_itest
ITEST_SRCS  = $(addprefix tests/integration/,main.c itest.c test_perf.c test_ring.c test_buffer.c)
ITEST_OBJS  = $(patsubst tests/integration/%.c,$(ITEST_DIR)/%.o,$(ITEST_SRCS))
ITEST_BPF   = $(BUILD)/bpf/itest_emit.bpf.o
ITEST_ENV   = RP_ITEST_BPF=$(ITEST_BPF)

ALL_TARGETS  += $(ITEST_BIN)
CHECK_SUITES += integration integration-valgrind
TEST_SUITES  += integration integration-valgrind

.PHONY: suite-integration suite-integration-valgrind itest

itest: $(ITEST_BIN) $(ITEST_BPF)

$(ITEST_DIR)/%.o: tests/integration/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(ITEST_BIN): $(ITEST_OBJS) $(BUILD)/lib/libringproof.a
	$(CC) $(ALL_CFLAGS) -o $@ $(ITEST_OBJS) $(BUILD)/lib/libringproof.a -lbpf -lelf -lz -pthread

-include $(ITEST_OBJS:.o=.d)

suite-integration: $(ITEST_BIN) $(ITEST_BPF)
	@bash ci/suite.sh integration --tap -- env $(ITEST_ENV) $(ITEST_BIN)

# valgrind: no leak, no invalid access; RP_ITEST_QUICK keeps it short.
suite-integration-valgrind: $(ITEST_BIN) $(ITEST_BPF)
	@bash ci/suite.sh integration-valgrind --tap -- env $(ITEST_ENV) RP_ITEST_QUICK=1 \
	  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --suppressions=tests/integration/valgrind.supp $(ITEST_BIN)
