# shellcheck shell=bash
lint_yaml() {
  local f
  for f in "$@"; do
    yamllint --strict "$f" || return
  done
}

function task:lint {
  log_cmd "shellcheck run.sh lib/*.sh tasks/*.sh"
  shellcheck run.sh lib/*.sh tasks/*.sh
  lint_yaml .github/workflows/*.yml
}

function task:test {
  task:clean
  mkdir -p build
  python -m pytest -q "$@" | tee build/test.log
}
