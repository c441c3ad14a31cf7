# shellcheck shell=bash
IMAGE=${IMAGE:-registry.example.com/acme/api}

function task:image {
  local tag=${1:-dev}
  container build --tag "$IMAGE:$tag" .
  log_ok "built $IMAGE:$tag"
}

function task:push {
  task:image "$1"
  container push "$IMAGE:$1" || log_err "push of $IMAGE:$1 failed"
}
