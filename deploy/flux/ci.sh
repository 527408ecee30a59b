#!/bin/sh
# fluidgen's CI template for Flux: render in CI, then commit the result or push it as an OCI
# artifact. Flux cannot run fluidgen in the cluster (kustomize-controller runs kustomize with
# plugins off), so the pipeline is:
#
#   fluidgen validate SPEC_DIR                       specs, fluidgen.yaml and manifests
#   fluidgen plan --against git:BASE SPEC_DIR        fails on edits Fluid would ignore
#   fluidgen build --gitops flux -o OUT SPEC_DIR     Flux's layout (workloads/ apart)
#   flux push artifact OCI_URL --path OUT ...        only with --oci, and only when flux is there
#
# Usage: deploy/flux/ci.sh [--base REV] [--env NAME] [--out DIR] [--sops-age RECIPIENT]
#                          [--oci oci://REGISTRY/REPO:TAG] [--require-push] [--allow-recreate] SPEC_DIR
#        deploy/flux/ci.sh --push-only DIR --oci URL     push a directory built elsewhere
#
# Plaintext Secrets are refused: `flux push artifact` does not honour .gitignore, so a
# secrets.yaml written by `build --write-secrets` would be pushed. Give Secrets as
# externalSecret/existingSecret in the specs, or --sops-age (Flux decrypts them itself).
# Environment: FLUIDGEN_CI_BASE, FLUIDGEN_CI_ENV, FLUIDGEN_CI_OUT, FLUIDGEN_CI_SOPS_AGE,
# FLUIDGEN_CI_OCI and FLUIDGEN_CI_REQUIRE_PUSH (true) give the defaults of the flags
# (action.yml here passes its inputs so); FLUIDGEN=... names the fluidgen program.
set -eu

base=${FLUIDGEN_CI_BASE:-}
env_name=${FLUIDGEN_CI_ENV:-}
out=${FLUIDGEN_CI_OUT:-rendered}
sops_age=${FLUIDGEN_CI_SOPS_AGE:-}
oci=${FLUIDGEN_CI_OCI:-}
case ${FLUIDGEN_CI_REQUIRE_PUSH:-no} in yes|true|1) require_push=yes ;; *) require_push=no ;; esac
allow_recreate=no
push_only=
fluidgen=${FLUIDGEN:-fluidgen}

say() { printf 'fluidgen-ci: %s\n' "$*" >&2; }
die() { say "error: $2"; exit "$1"; }

while [ $# -gt 0 ]; do
  case $1 in
    --base) base=${2:?--base needs a revision}; shift 2 ;;
    --env) env_name=${2:?--env needs a name}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --sops-age) sops_age=${2:?--sops-age needs a recipient}; shift 2 ;;
    --oci) oci=${2:?--oci needs oci://REGISTRY/REPO:TAG}; shift 2 ;;
    --require-push) require_push=yes; shift ;;
    --allow-recreate) allow_recreate=yes; shift ;;
    --push-only) push_only=${2:?--push-only needs a directory}; shift 2 ;;
    --write-secrets) die 2 "--write-secrets writes plaintext Secrets, which flux push artifact would publish; use --sops-age, externalSecret or existingSecret" ;;
    --) shift; break ;;
    -*) die 2 "unknown option $1" ;;
    *) break ;;
  esac
done

refuse_plaintext() {
  # $1: a rendered directory about to be committed or pushed; every secrets.yaml below it counts
  # (flux push artifact takes the whole tree, e.g. one directory per environment), through
  # symbolic links too (-L: a linked environment directory, or $1 itself a link)
  found=$(find -L "$1" -name secrets.yaml -print 2>/dev/null | head -n 1)
  if [ -n "$found" ]; then
    die 1 "$found holds plaintext Secrets (build --write-secrets); flux push artifact ignores .gitignore and would publish them. Rebuild with --sops-age or without credential values"
  fi
  # and every document of every YAML or JSON file by its content, whatever the file is called,
  # hidden or behind a link: a Secret with values, alone or inside Lists at any depth (kustomize
  # applies their items), unless sops sealed it
  if ! find -L "$1" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) \
      -exec "$fluidgen" validate --specs-only --forbid-secret-values -- {} +; then
    die 1 "$1 holds a Secret with plaintext values (named above); flux push artifact would publish it. Give Secrets as externalSecret/existingSecret, or --sops-age"
  fi
}

push() {
  # $1: the directory to push
  [ -n "$oci" ] || return 0
  case $oci in oci://*) ;; *) die 2 "--oci must be oci://REGISTRY/REPO:TAG, not $oci" ;; esac
  refuse_plaintext "$1"
  if ! command -v flux >/dev/null 2>&1; then
    [ "$require_push" = yes ] && die 1 "the flux CLI is not installed; cannot push $1 to $oci"
    say "flux CLI not found: skipped pushing $1 to $oci"
    return 0
  fi
  source_url=$(git config --get remote.origin.url 2>/dev/null || echo local)
  revision=$(source_revision)
  say "flux push artifact $oci --path $1 --revision $revision"
  flux push artifact "$oci" --path "$1" --source "$source_url" --revision "$revision" --reproducible
  output artifact "$oci"
  output revision "$revision"
}

source_revision() {
  # Flux's revision: <branch|tag>@sha1:<sha>, or sha1:<sha> when no branch or tag names the commit
  # (flux2 cmd/flux/push_artifact.go --revision; fluxcd/pkg git/utils.go SplitRevision: a detached
  # checkout's "HEAD" is no named pointer). A CI checkout is often detached (a tag, a pull request).
  sha=$(git rev-parse HEAD 2>/dev/null) || { echo unknown; return 0; }
  ref=$(git symbolic-ref -q --short HEAD 2>/dev/null || git tag --points-at HEAD 2>/dev/null | head -n 1)
  if [ -n "$ref" ]; then echo "$ref@sha1:$sha"; else echo "sha1:$sha"; fi
}

output() {
  # A step output for GitHub Actions (action.yml's outputs), when run there: name=value, one line
  [ -n "${GITHUB_OUTPUT:-}" ] || return 0
  case $2 in *"
"*) die 1 "$1 holds a newline; it cannot be a step output" ;; esac
  printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"
}

if [ -n "$push_only" ]; then
  [ -d "$push_only" ] || die 2 "--push-only $push_only is not a directory"
  [ -n "$oci" ] || die 2 "--push-only needs --oci"
  output out "$push_only"
  push "$push_only"
  exit 0
fi

[ $# -eq 1 ] || die 2 "give one SPEC_DIR (a directory of specs, with or without fluidgen.yaml)"
specs=$1
set --
[ -n "$env_name" ] && set -- --env "$env_name"

say "validate $specs"
"$fluidgen" validate -- "$specs"

if [ -n "$base" ]; then
  say "plan against git:$base"
  if [ "$allow_recreate" = yes ]; then
    "$fluidgen" plan --against "git:$base" --allow-recreate "$@" -- "$specs"
  else
    "$fluidgen" plan --against "git:$base" "$@" -- "$specs"
  fi
else
  say "no --base: plan skipped (a first build)"
fi

say "build $specs -> $out"
if [ -n "$sops_age" ]; then
  "$fluidgen" build -q --gitops flux "$@" -o "$out" --sops-age "$sops_age" -- "$specs"
else
  "$fluidgen" build -q --gitops flux "$@" -o "$out" -- "$specs"
fi
refuse_plaintext "$out"
output out "$out"
push "$out"
say "done: $out"
