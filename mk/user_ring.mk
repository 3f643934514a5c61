# User ring buffer producer (BPF_MAP_TYPE_USER_RINGBUF): unit tests of
# core/rp_user_ring on synthetic rings (cmocka, TAP) and real-kernel tests of
# adapters/linux/rp_bpf_user_ringbuf.c with a BPF program draining the ring.
# core/rp_user_ring.c and the adapter join the library through the core/*.c
# and adapters/linux/*.c wildcards (Makefile, mk/adapters.mk), the BPF
# program $(BPF_DIR)/user_ring_test.bpf.o through mk/bpf.mk's one rule, the
# fuzz harness fuzz/harness_user_ring.c through mk/fuzz.mk's wildcard.
#   make user-ring-tests                 build the test binaries and the BPF program
#   make suite-user-ring-unit            cmocka tests of core/rp_user_ring
#   make suite-user-ring-unit-valgrind   the same under valgrind memcheck (any error fails)
#   make suite-user-ring-integration     reserve/submit/discard/full/blocking against the kernel
UR_DIR    = $(BUILD)/user_ring
UR_LIB    = $(BUILD)/lib/libringproof.a
UR_UNIT   = $(UR_DIR)/test_user_ring_unit
UR_ITEST  = $(UR_DIR)/test_user_ring_integration
UR_BPF    = $(BPF_DIR)/user_ring_test.bpf.o

ALL_TARGETS += $(UR_UNIT) $(UR_ITEST) $(UR_BPF)

.PHONY: user-ring-tests
user-ring-tests: $(UR_UNIT) $(UR_ITEST) $(UR_BPF)

$(UR_DIR)/%.o: tests/user_ring/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/user_ring $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(UR_UNIT): $(UR_DIR)/test_user_ring_unit.o $(UR_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka

$(UR_ITEST): $(UR_DIR)/test_user_ring_integration.o $(UR_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBBPF_LIBS) -lpthread

.SECONDARY: $(UR_DIR)/test_user_ring_unit.o $(UR_DIR)/test_user_ring_integration.o

-include $(UR_DIR)/*.d
