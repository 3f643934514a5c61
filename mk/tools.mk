# The ringproof CLI (tools/), `make run`, and the helpers of the tools suite
# (a row of mk/suites.mk).
TOOLS_DIR     = $(BUILD)/tools
TOOLS_BIN     = $(TOOLS_DIR)/ringproof
TOOLS_SRCS    = $(sort $(wildcard tools/*.c))
TOOLS_OBJS    = $(patsubst tools/%.c,$(TOOLS_DIR)/obj/%.o,$(TOOLS_SRCS))
TOOLS_LIBS    = -ldw -lseccomp $(LIBBPF_LIBS)
# BPF objects (mk/bpf.mk) the tool embeds (trace) and its tests use.
TOOLS_BPF     = $(BPF_DIR)/trace.bpf.o $(BPF_DIR)/bench_perf.bpf.o $(BPF_DIR)/bench_ringbuf.bpf.o
# The tools suite's helpers (tools/test/).
TOOLS_TESTS   = $(TOOLS_DIR)/tools-test-emit $(TOOLS_DIR)/tools-test-hot $(TOOLS_DIR)/tools-test-deep \
                $(TOOLS_DIR)/tools-test-notmpfile.so

ALL_TARGETS  += $(TOOLS_BIN) $(TOOLS_TESTS)

.PHONY: run tools

tools: $(TOOLS_BIN)

$(TOOLS_DIR)/obj/%.o: tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DRP_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

# --version prints VERSION, which the Makefile sets
$(TOOLS_DIR)/obj/main.o: Makefile

$(TOOLS_DIR)/obj/embed.o: tools/embed.S $(BPF_DIR)/trace.bpf.o
	@mkdir -p $(dir $@)
	$(CC) -DRPT_TRACE_BPF_OBJ='"$(BPF_DIR)/trace.bpf.o"' -c $< -o $@

# Linked against the static library: the tool runs from any directory.
$(TOOLS_BIN): $(TOOLS_OBJS) $(TOOLS_DIR)/obj/embed.o $(BUILD)/lib/libringproof.a
	$(CC) $(ALL_CFLAGS) -o $@ $(TOOLS_OBJS) $(TOOLS_DIR)/obj/embed.o $(BUILD)/lib/libringproof.a $(TOOLS_LIBS)

# Test helper: pins maps and produces events with BPF_PROG_TEST_RUN.
$(TOOLS_DIR)/tools-test-emit: tools/test/emit.c $(BPF_DIR)/bench_perf.bpf.o $(BPF_DIR)/bench_ringbuf.bpf.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ tools/test/emit.c $(TOOLS_LIBS)

# Test target of record vs perf: frame pointers, no inlining, debug info.
$(TOOLS_DIR)/tools-test-hot: tools/test/hot.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -fno-inline -o $@ $<

# Test target of folded stacks longer than 1 KiB: a frame per recursion level.
$(TOOLS_DIR)/tools-test-deep: tools/test/deep.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-inline -o $@ $<

# Test shim (LD_PRELOAD): a filesystem without O_TMPFILE, for record -o's fallback.
$(TOOLS_DIR)/tools-test-notmpfile.so: tools/test/notmpfile.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -shared -fPIC -o $@ $< -ldl

-include $(TOOLS_OBJS:.o=.d)

run:
	bash ci/deps.sh run
	$(MAKE) --no-print-directory $(TOOLS_BIN)
	$(TOOLS_BIN) trace --seconds 5
