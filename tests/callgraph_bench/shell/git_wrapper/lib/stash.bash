# shellcheck shell=bash
# Keep uncommitted work out of the way while branches are switched.
STASH_MSG="git-sync autostash"

stash_push() {
  git diff --quiet && git diff --cached --quiet && return 0
  git stash push --include-untracked --quiet -m "$STASH_MSG"
}

stash_pop() {
  git stash list | grep -q "$STASH_MSG" || return 0
  git stash pop --quiet
}
