# BPF ring buffer and backward (overwrite) perf rings: unit tests on synthetic
# rings (cmocka, TAP) and integration tests against the real kernel.
#   make ringbuf-tests              build $(BUILD)/ringbuf/*
#   make suite-ringbuf-unit         cmocka tests of core/rp_ringbuf + core/rp_backward
#   make suite-ringbuf-unit-valgrind the same under valgrind memcheck (any error fails)
#   make suite-ringbuf-integration  BPF ringbuf round trip / conservation, overwrite perf ring,
#                                   backward non-overwrite perf ring (adapters/linux/rp_perf_backward.c,
#                                   linked into LIB_SRCS by the adapters/linux/*.c wildcard in mk/adapters.mk)
RB_DIR      = $(BUILD)/ringbuf
RB_LIB      = $(BUILD)/lib/libringproof.a
RB_UNIT     = $(RB_DIR)/test_ringbuf_unit
RB_ITEST    = $(RB_DIR)/test_ringbuf_integration
RB_HELPERS  = $(RB_DIR)/rb_builder.o
RB_BPF      = $(RB_DIR)/ringbuf_test.bpf.o

ALL_TARGETS  += $(RB_UNIT) $(RB_BPF) $(if $(wildcard tests/ringbuf/test_ringbuf_integration.c),$(RB_ITEST))
CHECK_SUITES += ringbuf-unit ringbuf-unit-valgrind ringbuf-integration
TEST_SUITES  += ringbuf-unit ringbuf-unit-valgrind ringbuf-integration

.PHONY: ringbuf-tests suite-ringbuf-unit suite-ringbuf-unit-valgrind suite-ringbuf-integration
ringbuf-tests: $(RB_UNIT) $(RB_ITEST) $(RB_BPF)

$(RB_DIR)/%.o: tests/ringbuf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/ringbuf $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(RB_UNIT): $(RB_DIR)/test_ringbuf_unit.o $(RB_HELPERS) $(RB_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka

$(RB_ITEST): $(RB_DIR)/test_ringbuf_integration.o $(RB_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIB_LIBS) -lpthread

# Own rule (outputs under $(BUILD)/ringbuf/), same flags as mk/bpf.mk.
RB_BPF_INC = /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
$(RB_DIR)/%.bpf.o: bpf/%.bpf.c
	@mkdir -p $(dir $@)
	clang -O2 -g -target bpf -Wall -Werror -I$(RB_BPF_INC) -Ibpf -c $< -o $@

suite-ringbuf-unit: $(RB_UNIT)
	@bash ci/suite.sh ringbuf-unit --tap -- env CMOCKA_MESSAGE_OUTPUT=TAP $(RB_UNIT)

suite-ringbuf-unit-valgrind: $(RB_UNIT)
	@bash ci/suite.sh ringbuf-unit-valgrind --tap -- bash tests/unit/run.sh --valgrind $(RB_UNIT)

suite-ringbuf-integration: $(RB_ITEST) $(RB_BPF)
	@bash ci/suite.sh ringbuf-integration --tap -- $(RB_ITEST) $(RB_BPF)

.SECONDARY: $(RB_HELPERS) $(RB_DIR)/test_ringbuf_unit.o $(RB_DIR)/test_ringbuf_integration.o

-include $(RB_DIR)/*.d
