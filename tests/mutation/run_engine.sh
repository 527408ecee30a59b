#!/usr/bin/env bash
# Every mutant of one engine module (fluidgen/engines/MODULE.py) in seeded order, against the
# engines' set (README "Seventh session"), resumable: a second call with the same OUT skips the
# mutants already judged. Run it from a worktree of the commit to judge (run_mutants.py writes
# nothing to the tree), with the shared test data beside it or FLUIDGEN_SHARED_DIR set.
#
#   tests/mutation/run_engine.sh MODULE OUT [--wide] [run_mutants.py options...]
#
# --wide adds the tests the first pass leaves out for speed (every engine's rows of the field
# and init tests, the rule-fact, override, runtime-lowering and import tests): for re-running a
# first pass's survivors, e.g. `--wide --only-survivors FIRST.jsonl --new-since COMMIT`.
set -euo pipefail
module=${1:?MODULE, e.g. juicefs}
out=${2:?OUT, a results file (.jsonl)}
shift 2
wide=0
if [ "${1:-}" = "--wide" ]; then wide=1; shift; fi
cd "$(git rev-parse --show-toplevel)"
file="fluidgen/engines/$module.py"
[ -f "$file" ] || { echo "no $file" >&2; exit 2; }
set_=(tests/lint/test_docs.py::test_rules_page_is_fresh tests/lower/test_keyfacts.py tests/features/test_golden.py
      tests/engines tests/features/test_fluid_fixtures.py tests/features/test_fluid_fixtures_sync.py
      tests/catalog/test_runtime_fields.py tests/fluid/test_fields.py tests/fluid/test_sync.py
      tests/base/test_fluidsource.py tests/features/test_fact_mutants.py tests/features/test_health_fluid.py
      tests/commands/test_init.py tests/features/test_init_explain.py tests/compile/test_plan.py
      tests/features/test_workable.py tests/lint tests/catalog/test_healthcheck.py tests/lower/test_mounts.py
      tests/lower/test_workloads.py tests/catalog/test_schemas.py tests/spec/test_specschema.py
      tests/features/test_traces.py tests/catalog/test_kinds.py tests/features/test_rule_examples.py)
# catalog/test_schemas.py's two CRD-validator fuzz tests read no engine record (33-57 s a survivor)
filters=(--keep 'tests/catalog/test_schemas.py=test_every_crd_kind_is_modelled|test_builtin_model_matches')
if [ "$module" != contract ]; then
  # the engine's name (what test ids carry), which is not always its module's: cacheruntime.py is "cache"
  engine=$(python -c "import fluidgen.engines.$module as m; print(m.ENGINE.name)")
  for other in $(python -c "from fluidgen.engines.engine_table import ENGINES; print(*ENGINES)"); do
    [ "$other" = "$engine" ] && continue
    # other engines' parametrized rows (a kind's id carries the engine's name or its kind's); the
    # cache engine's name is also a word of many ids (runtime.cache), so only its kind's is dropped
    [ "$other" != cache ] && filters+=(--drop-param "$other")
    filters+=(--drop-param "${other}runtime")
  done
  if [ $wide = 0 ]; then
    filters+=(--keep "tests/catalog/test_runtime_fields.py=(?<![a-z0-9])$engine(?![a-z0-9])|_page_"
              --keep "tests/commands/test_init.py=(?<![a-z0-9])$engine(?![a-z0-9])"
              --keep "tests/features/test_init_explain.py=(?<![a-z0-9])$engine(?![a-z0-9])")
  fi
fi
if [ $wide = 1 ]; then
  set_+=(tests/features/test_rule_facts.py tests/lower/test_overrides.py tests/lower/test_runtime.py tests/importer)
fi
count=$(python -c "import sys; sys.path[:0] = ['tests/mutation', '.']; import run_mutants as r; from pathlib import Path; \
print(len(r.mutants(Path('$file'))))")
git rev-parse --short HEAD
exec nice -n 10 python tests/mutation/run_mutants.py "$file" "${filters[@]}" --workers "${WORKERS:-2}" \
  --sample "$count" --out "$out" "$@" --tests "${set_[@]}"
