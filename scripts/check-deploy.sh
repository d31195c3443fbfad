#!/usr/bin/env bash
# Checks the deployment files offline: the Helm chart (helm lint, helm template with the default values and with
# every deploy/helm/values-*.yaml, each rendered manifest against the Kubernetes JSON schemas, strictly) and
# docker-compose.yml (against the compose specification's JSON schema).
#
#   bash scripts/check-deploy.sh                 # install what is missing, then check
#   bash scripts/check-deploy.sh --install-only
#
# Tools are installed on first use under ~/.cache/engram/tools (ENGRAM_TOOLS_CACHE), never into the repository,
# each from a package registry: helm built with `go install` from the Go module proxy (about 2 minutes on two
# cores, once), kubernetes-validate (which bundles the Kubernetes schemas) and check-jsonschema (which bundles
# the compose-spec schema) from PyPI. Neither validator downloads a schema at run time.
#
# ENGRAM_DEPLOY_CHART and ENGRAM_DEPLOY_COMPOSE check another chart or compose file (the tests break copies).
# Exit status: 0 when everything passed, 1 when a check failed, 3 when a tool could not be installed because its
# registry could not be reached.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

HELM_VERSION=v3.22.0
KUBERNETES_VERSION=1.30.0
KUBERNETES_VALIDATE_VERSION=1.37.0
CHECK_JSONSCHEMA_VERSION=0.39.0

tools="${ENGRAM_TOOLS_CACHE:-${ENGRAM_CACHE:-$HOME/.cache/engram}/tools}"
chart="${ENGRAM_DEPLOY_CHART:-$root/deploy/helm/engram}"
compose="${ENGRAM_DEPLOY_COMPOSE:-$root/docker-compose.yml}"
helm="$tools/helm-$HELM_VERSION/helm"
venv="$tools/deploy-venv-$KUBERNETES_VALIDATE_VERSION-$CHECK_JSONSCHEMA_VERSION"

# Runs an install command quietly; on failure prints its output and exits 3 when the registry was unreachable.
install_step() {
  local what="$1" started log
  shift
  started=$SECONDS
  log="$(mktemp)"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    if grep -qiE 'network|connection|resolve|temporary failure|timed out|unreachable|no such host|dial tcp' "$log"; then
      echo "check-deploy: $what not installed: its registry could not be reached" >&2
      exit 3
    fi
    echo "check-deploy: installing $what failed" >&2
    exit 1
  fi
  rm -f "$log"
  echo "check-deploy: installed $what in $((SECONDS - started)) s"
}

install_tools() {
  mkdir -p "$tools"
  if [[ ! -x "$helm" ]]; then
    command -v go >/dev/null || { echo "check-deploy: go is needed to build helm" >&2; exit 1; }
    # The -X flags are those of helm's own release build: the version it reports (a plain go install says only
    # "v3.22") and its default Kubernetes version, the one of its client-go (v0.37, i.e. Kubernetes 1.37; a plain
    # go install says 1.20). -s -w leave out debug data.
    local pkg=helm.sh/helm/v3
    local kube=(-X "$pkg/pkg/lint/rules.k8sVersionMajor=1" -X "$pkg/pkg/lint/rules.k8sVersionMinor=37"
      -X "$pkg/pkg/chartutil.k8sVersionMajor=1" -X "$pkg/pkg/chartutil.k8sVersionMinor=37")
    install_step "helm $HELM_VERSION" env GOBIN="$tools/helm-$HELM_VERSION" GOFLAGS=-buildvcs=false \
      go install -ldflags "-s -w -X $pkg/internal/version.version=$HELM_VERSION ${kube[*]}" "$pkg/cmd/helm@$HELM_VERSION"
  fi
  # The marker is written last, so an interrupted install is redone.
  if [[ ! -e "$venv/.installed" ]]; then
    rm -rf "$venv"
    install_step "a Python virtual environment" python3 -m venv "$venv"
    install_step "kubernetes-validate $KUBERNETES_VALIDATE_VERSION and check-jsonschema $CHECK_JSONSCHEMA_VERSION" \
      env PIP_CACHE_DIR="$tools/pip-cache" "$venv/bin/pip" install --quiet --disable-pip-version-check \
      "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" "check-jsonschema==$CHECK_JSONSCHEMA_VERSION"
    touch "$venv/.installed"
  fi
}

install_tools
[[ "${1:-}" == --install-only ]] && exit 0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL $*" >&2
  failed=1
}

manifests=0
renders=0
# One render: lint, template, then every manifest against the schemas. Arguments: a name, then helm's options.
check_render() {
  local name="$1" documents report passed kinds
  shift
  renders=$((renders + 1))
  if ! "$helm" lint --strict --kube-version "$KUBERNETES_VERSION" "$chart" "$@" >"$work/$name.lint" 2>&1; then
    cat "$work/$name.lint" >&2
    fail "helm lint ($name)"
    return
  fi
  if ! "$helm" template engram "$chart" --kube-version "$KUBERNETES_VERSION" "$@" >"$work/$name.yaml" 2>"$work/$name.err"; then
    cat "$work/$name.err" >&2
    fail "helm template ($name)"
    return
  fi
  documents="$(grep -c '^kind: ' "$work/$name.yaml" || true)"
  # Strict: a field the schema does not know fails. A kind without a schema is only a warning there, so it
  # fails here, as does any manifest that was not reported as passed.
  report="$("$venv/bin/kubernetes-validate" --strict -k "$KUBERNETES_VERSION" "$work/$name.yaml" 2>&1 || true)"
  passed="$(grep -c '^INFO .* passed for resource' <<<"$report" || true)"
  grep -E '^(ERROR|WARN)' <<<"$report" | sed "s|$work/||" >&2 || true
  if [[ "$documents" -eq 0 || "$passed" -ne "$documents" ]]; then
    fail "$name: $passed of $documents rendered manifests valid against Kubernetes $KUBERNETES_VERSION"
    return
  fi
  kinds="$(grep '^kind: ' "$work/$name.yaml" | cut -d' ' -f2 | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')"
  echo "ok   $name: $documents manifests valid against Kubernetes $KUBERNETES_VERSION ($kinds)"
  manifests=$((manifests + documents))
}

check_render default
for values in "$(dirname "$chart")"/values-*.yaml; do
  [[ -e "$values" ]] && check_render "$(basename "$values" .yaml)" -f "$values"
done
# The branches the values files leave out: a fixed replica count, readiness on /healthz, metrics behind the
# operator credential (no scrape annotations, no worker probe), no worker metrics port, an existing Secret.
check_render variant --set api.autoscaling.enabled=false --set api.readinessPath=/healthz --set config.METRICS=operator \
  --set worker.metrics.enabled=false --set existingSecret=engram-credentials

if "$venv/bin/check-jsonschema" --builtin-schema vendor.compose-spec "$compose" >"$work/compose.out" 2>&1; then
  echo "ok   $(basename "$compose"): valid against the compose specification"
else
  cat "$work/compose.out" >&2
  fail "$(basename "$compose") against the compose specification"
fi

if [[ $failed -ne 0 ]]; then
  echo "check-deploy: failed" >&2
  exit 1
fi
echo "check-deploy: passed ($renders renders, $manifests manifests, helm $HELM_VERSION, Kubernetes $KUBERNETES_VERSION)"
