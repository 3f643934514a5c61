# Frama-C/WP proofs of core/ (proofs/run.sh) and the proof mutants.
#   make proofs              every function, results replayed from proofs/cache.json where the task is unchanged
#   make proofs-full         every function, no stored result trusted
#   make proofs-cache        proofs-full, then rewrite proofs/cache.json from it
#   make proof FCT=f[,g]     one function (and its smoke tests), for the edit-prove loop
#   make proofs-mutants      each proofs/mutants/*.mut must make the proof fail
#   make proofs-mutants-cache    proofs-mutants with no stored mutant result, then rewrite proofs/mutants-cache.json
#   make proofs-mutants-control  each mutant's selection and budget must prove the unmutated code
# (suites proofs and proofs-mutants: mk/suites.mk)

.PHONY: proofs proofs-full proofs-cache proof proofs-mutants proofs-mutants-cache proofs-mutants-control
proofs:
	@bash proofs/run.sh

proofs-full:
	@RP_PROOF_CACHE=none bash proofs/run.sh

proofs-cache:
	@RP_PROOF_CACHE=none RP_PROOF_CACHE_SAVE=1 bash proofs/run.sh

proof:
	@test -n "$(FCT)" || { echo "usage: make proof FCT=function[,function]"; exit 2; }
	@RP_WP_FCT=$(FCT) RP_PROOF_DIR=$(BUILD)/proof bash proofs/run.sh

proofs-mutants:
	@bash proofs/mutants.sh

proofs-mutants-cache:
	@RP_MUTANT_CACHE=none RP_MUTANT_CACHE_SAVE=1 bash proofs/mutants.sh

proofs-mutants-control:
	@RP_MUTANT_CONTROL=1 RP_MUTANT_DIR=$(BUILD)/proofs-mutants-control bash proofs/mutants.sh
