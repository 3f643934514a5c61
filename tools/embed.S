/* The BPF object of `ringproof trace`, embedded so the tool runs from any
 * directory.  RPT_TRACE_BPF_OBJ is the object's path (set by mk/tools.mk). */
	.section .rodata
	.balign 8
	.globl rpt_trace_bpf_obj
	.globl rpt_trace_bpf_obj_end
rpt_trace_bpf_obj:
	.incbin RPT_TRACE_BPF_OBJ
rpt_trace_bpf_obj_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
