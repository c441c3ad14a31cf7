# shellcheck shell=bash
# bashline plugin: the active Python virtualenv.
VIRTUAL_ENV_DISABLE_PROMPT=1

venv_name() {
  [[ -n ${VIRTUAL_ENV:-} ]] && basename "$VIRTUAL_ENV"
}

segment_venv() {
  local name
  name=$(venv_name) && bashline_segment blue "($name)"
}

bashline_register segment_venv
