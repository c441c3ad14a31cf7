# shellcheck shell=bash
# A tiny hook system: `on_event NAME FUNC` registers FUNC, `fire NAME` runs them.
declare -A HOOKS=()

on_event() {
  HOOKS[$1]+=" $2"
}

fire() {
  local handler
  for handler in ${HOOKS[$1]:-}; do
    $handler "${@:2}"
  done
}

save_history() {
  history -a
}

notify() {
  local cmd=${NOTIFIER:-notify-send}
  "${cmd}" "$*"
}

notify_done() {
  notify "shell $$ exited"
}

on_event exit notify_done
trap 'fire exit' EXIT
