# BPF ring buffer and backward (overwrite) perf rings: unit tests on synthetic
# rings (cmocka, TAP) and integration tests against the real kernel.
#   make ringbuf-tests              build both test binaries and bpf/ringbuf_test.bpf.c
#   make suite-ringbuf-unit         cmocka tests of core/rp_ringbuf + core/rp_backward
#   make suite-ringbuf-unit-valgrind the same under valgrind memcheck (any error fails)
#   make suite-ringbuf-integration  BPF ringbuf round trip / conservation, overwrite perf ring,
#                                   backward non-overwrite perf ring (adapters/linux/rp_perf_backward.c,
#                                   linked into LIB_SRCS by the adapters/linux/*.c wildcard in mk/adapters.mk)
# (the suite-* targets are rows of mk/suites.mk)
RB_DIR      = $(BUILD)/ringbuf
RB_LIB      = $(BUILD)/lib/libringproof.a
RB_UNIT     = $(RB_DIR)/test_ringbuf_unit
RB_ITEST    = $(RB_DIR)/test_ringbuf_integration
RB_HELPERS  = $(RB_DIR)/rb_builder.o
RB_BPF      = $(BPF_DIR)/ringbuf_test.bpf.o

ALL_TARGETS  += $(RB_UNIT) $(RB_ITEST) $(RB_BPF)

.PHONY: ringbuf-tests
ringbuf-tests: $(RB_UNIT) $(RB_ITEST) $(RB_BPF)

$(RB_DIR)/%.o: tests/ringbuf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/ringbuf $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(RB_UNIT): $(RB_DIR)/test_ringbuf_unit.o $(RB_HELPERS) $(RB_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka

$(RB_ITEST): $(RB_DIR)/test_ringbuf_integration.o $(RB_HELPERS) $(RB_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBBPF_LIBS) -lpthread

.SECONDARY: $(RB_HELPERS) $(RB_DIR)/test_ringbuf_unit.o $(RB_DIR)/test_ringbuf_integration.o

-include $(RB_DIR)/*.d
