# BPF programs: every bpf/NAME.bpf.c is compiled by the one rule below to
# $(BPF_DIR)/NAME.bpf.o (BPF_DIR is $(BUILD)/bpf, set in the Makefile), for
# all their users: the integration and ringbuf tests, the tool (which embeds
# trace.bpf.o), its tests and the benchmarks.  clang -target bpf against
# <linux/bpf.h> + <bpf/bpf_helpers.h> (no CO-RE, so no vmlinux.h); one flag set
# for all: -Ibpf for the programs' shared headers, -Itools for
# tools/trace_event.h, __TARGET_ARCH_x86 for <bpf/bpf_tracing.h>.
#   make bpf        every program
BPF_CLANG   ?= clang
BPF_ARCH_INC = /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
BPF_CFLAGS  ?= -O2 -g -target bpf -Wall -Werror -D__TARGET_ARCH_x86 -I$(BPF_ARCH_INC) -Ibpf -Itools
BPF_OBJS     = $(patsubst bpf/%.bpf.c,$(BPF_DIR)/%.bpf.o,$(sort $(wildcard bpf/*.bpf.c)))
ALL_TARGETS += $(BPF_OBJS)

.PHONY: bpf
bpf: $(BPF_OBJS)

$(BPF_DIR)/%.bpf.o: bpf/%.bpf.c
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

-include $(BPF_OBJS:.o=.d)
