# User ring buffer producer (BPF_MAP_TYPE_USER_RINGBUF): unit tests of
# core/rp_user_ring on synthetic rings (cmocka, TAP) and real-kernel tests of
# adapters/linux/rp_bpf_user_ringbuf.c with a BPF program draining the ring.
# core/rp_user_ring.c and the adapter join the library through the core/*.c
# and adapters/linux/*.c wildcards (Makefile, mk/adapters.mk); the fuzz
# harness fuzz/harness_user_ring.c through the one in mk/fuzz.mk.
#   make user-ring-tests                 build $(BUILD)/user_ring/*
#   make suite-user-ring-unit            cmocka tests of core/rp_user_ring
#   make suite-user-ring-unit-valgrind   the same under valgrind memcheck (any error fails)
#   make suite-user-ring-integration     reserve/submit/discard/full/blocking against the kernel
UR_DIR    = $(BUILD)/user_ring
UR_LIB    = $(BUILD)/lib/libringproof.a
UR_UNIT   = $(UR_DIR)/test_user_ring_unit
UR_ITEST  = $(UR_DIR)/test_user_ring_integration
UR_BPF    = $(UR_DIR)/user_ring_test.bpf.o

ALL_TARGETS  += $(UR_UNIT) $(UR_ITEST) $(UR_BPF)
CHECK_SUITES += user-ring-unit user-ring-unit-valgrind user-ring-integration
TEST_SUITES  += user-ring-unit user-ring-unit-valgrind user-ring-integration

.PHONY: user-ring-tests suite-user-ring-unit suite-user-ring-unit-valgrind suite-user-ring-integration
user-ring-tests: $(UR_UNIT) $(UR_ITEST) $(UR_BPF)

$(UR_DIR)/%.o: tests/user_ring/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/user_ring $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(UR_UNIT): $(UR_DIR)/test_user_ring_unit.o $(UR_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka

$(UR_ITEST): $(UR_DIR)/test_user_ring_integration.o $(UR_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIB_LIBS) -lpthread

# Own rule (outputs under $(BUILD)/user_ring/), the flags of mk/bpf.mk.
UR_BPF_INC = /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
$(UR_DIR)/%.bpf.o: bpf/%.bpf.c bpf/user_ring_test.bpf.h
	@mkdir -p $(dir $@)
	clang -O2 -g -target bpf -Wall -Werror -I$(UR_BPF_INC) -Ibpf -c $< -o $@

suite-user-ring-unit: $(UR_UNIT)
	@bash ci/suite.sh user-ring-unit --tap -- env CMOCKA_MESSAGE_OUTPUT=TAP $(UR_UNIT)

suite-user-ring-unit-valgrind: $(UR_UNIT)
	@bash ci/suite.sh user-ring-unit-valgrind --tap -- bash tests/unit/run.sh --valgrind $(UR_UNIT)

suite-user-ring-integration: $(UR_ITEST) $(UR_BPF)
	@bash ci/suite.sh user-ring-integration --tap -- $(UR_ITEST) $(UR_BPF)

.SECONDARY: $(UR_DIR)/test_user_ring_unit.o $(UR_DIR)/test_user_ring_integration.o

-include $(UR_DIR)/*.d
