# The ringproof CLI (tools/), its BPF programs, `make run` and the tools suite.
TOOLS_DIR     = $(BUILD)/tools
TOOLS_BIN     = $(TOOLS_DIR)/ringproof
TOOLS_SRCS    = $(sort $(wildcard tools/*.c))
TOOLS_OBJS    = $(patsubst tools/%.c,$(TOOLS_DIR)/obj/%.o,$(TOOLS_SRCS))
TOOLS_LIBS    = -lbpf -ldw -lelf -lseccomp -lz
# BPF objects the tool, its tests and the benchmarks use (compiled here so
# this area does not depend on another fragment's rule names).
BPF_CLANG    ?= clang
TOOLS_BPF_CFLAGS = -O2 -g -target bpf -Wall -Werror -D__TARGET_ARCH_x86 \
                   -I/usr/include/$(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu) -Itools
TOOLS_BPF     = $(TOOLS_DIR)/bpf/trace.bpf.o $(TOOLS_DIR)/bpf/bench_perf.bpf.o \
                $(TOOLS_DIR)/bpf/bench_ringbuf.bpf.o

ALL_TARGETS  += $(TOOLS_BIN) $(TOOLS_DIR)/tools-test-emit $(TOOLS_DIR)/tools-test-hot
CHECK_SUITES += tools
TEST_SUITES  += tools

.PHONY: run suite-tools tools

tools: $(TOOLS_BIN)

$(TOOLS_DIR)/bpf/%.bpf.o: bpf/%.bpf.c tools/trace_event.h
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(TOOLS_BPF_CFLAGS) -c $< -o $@

$(TOOLS_DIR)/obj/%.o: tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DRP_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

$(TOOLS_DIR)/obj/embed.o: tools/embed.S $(TOOLS_DIR)/bpf/trace.bpf.o
	@mkdir -p $(dir $@)
	$(CC) -DRPT_TRACE_BPF_OBJ='"$(TOOLS_DIR)/bpf/trace.bpf.o"' -c $< -o $@

# Linked against the static library: the tool runs from any directory.
$(TOOLS_BIN): $(TOOLS_OBJS) $(TOOLS_DIR)/obj/embed.o $(BUILD)/lib/libringproof.a
	$(CC) $(ALL_CFLAGS) -o $@ $(TOOLS_OBJS) $(TOOLS_DIR)/obj/embed.o $(BUILD)/lib/libringproof.a $(TOOLS_LIBS)

# Test helper: pins maps and produces events with BPF_PROG_TEST_RUN.
$(TOOLS_DIR)/tools-test-emit: tools/test/emit.c $(TOOLS_DIR)/bpf/bench_perf.bpf.o \
                              $(TOOLS_DIR)/bpf/bench_ringbuf.bpf.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ tools/test/emit.c $(TOOLS_LIBS)

# Test target of record vs perf: frame pointers, no inlining, debug info.
$(TOOLS_DIR)/tools-test-hot: tools/test/hot.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -fno-inline -o $@ $<

-include $(TOOLS_OBJS:.o=.d)

suite-tools: $(TOOLS_BIN) $(TOOLS_DIR)/tools-test-emit $(TOOLS_DIR)/tools-test-hot $(TOOLS_BPF)
	@bash ci/suite.sh tools --tap -- bash tools/test/tools.sh $(TOOLS_BIN) $(TOOLS_DIR)

run:
	bash ci/deps.sh run
	$(MAKE) --no-print-directory $(TOOLS_BIN)
	$(TOOLS_BIN) trace --seconds 5
