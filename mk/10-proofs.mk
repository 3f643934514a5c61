# Frama-C/WP proofs of core/ (proofs/run.sh) and the proof mutants.
CHECK_SUITES += proofs proofs-mutants

.PHONY: proofs proofs-mutants suite-proofs suite-proofs-mutants
proofs:
	@bash proofs/run.sh

proofs-mutants:
	@bash proofs/mutants.sh

suite-proofs:
	@bash ci/suite.sh proofs -- bash proofs/run.sh

suite-proofs-mutants:
	@bash ci/suite.sh proofs-mutants -- bash proofs/mutants.sh
