#!/usr/bin/env bash
# git-sync: rebase every local branch that tracks a remote onto it, then push it.
# GIT_SYNC_DRY_RUN=1 prints the git commands instead of running them.
set -o errexit -o nounset -o pipefail

. "${BASH_SOURCE%/*}/lib/ui.bash"
. "${BASH_SOURCE%/*}/lib/stash.bash"

git() {
  if [[ ${GIT_SYNC_DRY_RUN:-0} == 1 ]]; then
    ui_note "+ git $*"
  else
    command git "$@"
  fi
}

function current-branch {
  git rev-parse --abbrev-ref HEAD
}

function tracking-branches() {
  git for-each-ref --format='%(refname:short) %(upstream:short)' refs/heads |
    while read -r branch upstream; do
      [[ -n $upstream ]] && echo "$branch"
    done
}

sync_branch() {
  local b=$1
  git checkout --quiet "$b" || return 1
  if ! git pull --rebase --quiet; then
    git rebase --abort
    ui_warn "$b: conflict, skipped"
    return 1
  fi
  git push --quiet && ui_ok "$b"
}

main() {
  local start b failed=0
  start=`current-branch`
  stash_push
  for b in $(tracking-branches); do
    sync_branch "$b" || failed=$((failed + 1))
  done
  git checkout --quiet "$start"
  stash_pop || ui_warn "autostash did not apply cleanly"
  (( failed == 0 )) || ui_fail "$failed branch(es) not synced"
}

main "$@"
