# Record and SAMPLE parsers (core/rp_sample.*, core/rp_records.*, core/rp_cursor.*).
#   make suite-parsers-unit          cmocka unit tests on hand-written records (TAP)
#   make suite-parsers-integration   real kernel: a sampling event + side-band records
#   make proofs-parsers              WP on the parser functions only
PARSERS_DIR   = $(BUILD)/parsers
PARSERS_CORE  = core/rp_span.c core/rp_cursor.c core/rp_sample.c core/rp_records.c core/rp_status.c core/rp_ring.c
PARSERS_UNIT  = $(PARSERS_DIR)/test_parsers
PARSERS_INTEG = $(PARSERS_DIR)/test_parsers_kernel
PARSERS_FCT   = rp_span_prefix_of,rp_take_u64,rp_take_u32,rp_take_u16,rp_take_u8,rp_take_span,rp_take_array,rp_take_string,rp_take_opt_u64,rp_take_opt_u32x2,rp_popcount64,id_trailer_size,rp_sample_layout_make,rp_callchain_is_context,empty_span,rp_take_read_values,rp_read_entry,step_read,step_raw,step_counted,step_regs,step_stack,step_branch,sample_walk,rp_sample_parse_body,rp_sample_parse,rp_sample_id_parse,take_pid_tid,parse_mmap,take_prot_flags_name,parse_mmap2,parse_namespaces,parse_ksymbol,parse_text_poke,parse_callchain_deferred,parse_lost,parse_comm,parse_task,parse_3u64,parse_read,parse_bpf_event,parse_cgroup,parse_payload,rp_record_parse

ALL_TARGETS  += $(PARSERS_UNIT) $(PARSERS_INTEG)
CHECK_SUITES += parsers-unit parsers-integration
TEST_SUITES  += parsers-unit parsers-integration

.PHONY: suite-parsers-unit suite-parsers-integration proofs-parsers

$(PARSERS_UNIT): tests/parsers/test_parsers.c tests/parsers/pbuf.h $(PARSERS_CORE) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/parsers $(ALL_CFLAGS) -o $@ tests/parsers/test_parsers.c $(PARSERS_CORE) -lcmocka

$(PARSERS_INTEG): tests/parsers/test_kernel.c $(PARSERS_CORE) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/parsers $(ALL_CFLAGS) -o $@ tests/parsers/test_kernel.c $(PARSERS_CORE)

suite-parsers-unit: $(PARSERS_UNIT)
	@CMOCKA_MESSAGE_OUTPUT=TAP bash ci/suite.sh parsers-unit --tap -- $(PARSERS_UNIT)

suite-parsers-integration: $(PARSERS_INTEG)
	@bash ci/suite.sh parsers-integration -- $(PARSERS_INTEG)

proofs-parsers:
	RP_WP_FCT=$(PARSERS_FCT) RP_PROOF_DIR=$(BUILD)/proofs-parsers bash proofs/run.sh core/rp_span.c core/rp_cursor.c core/rp_sample.c core/rp_records.c
