#!/usr/bin/env bash
# run.sh TASK [ARGS...]: the project's task runner; ./run.sh help lists the tasks.
set -euo pipefail
cd "$(dirname "$0")"
source lib/log.sh
for f in tasks/*.sh; do
  source "$f"
done

# podman if there is one, else docker
for engine in podman docker; do
  if command -v "$engine" >/dev/null 2>&1; then
    container() {
      log_cmd "$engine $*"
      "$engine" "$@"
    }
    break
  fi
done

function task:help {
  echo "usage: ./run.sh TASK [ARGS...]"
  compgen -A function task: | sed 's/^task:/  /'
}

function task:clean() {
  rm -rf build dist
  container image prune --force >/dev/null
}

function task:ci {
  task:lint
  task:test
  task:image "${GIT_SHA:-dev}"
}

if [[ $# -eq 0 ]]; then
  task:help
  exit 0
fi
if ! declare -F "task:$1" >/dev/null; then
  log_err "unknown task: $1"
  task:help >&2
  exit 2
fi
name=$1
shift
"task:$name" "$@"
