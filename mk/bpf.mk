# BPF-side programs, compiled with clang -target bpf against <linux/bpf.h> +
# <bpf/bpf_helpers.h> (no CO-RE, so no vmlinux.h).  The pattern rule builds
# any bpf/NAME.bpf.c as $(BUILD)/bpf/NAME.bpf.o; an area lists the objects it
# needs in BPF_OBJS (this fragment lists the integration tests' programs).
BPF_CLANG  ?= clang
BPF_ARCH_INC = /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
BPF_CFLAGS ?= -O2 -g -target bpf -Wall -Werror -I$(BPF_ARCH_INC) -Ibpf
BPF_OBJS    = $(BUILD)/bpf/itest_emit.bpf.o
ALL_TARGETS += $(BPF_OBJS)

.PHONY: bpf
bpf: $(BPF_OBJS)

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@
