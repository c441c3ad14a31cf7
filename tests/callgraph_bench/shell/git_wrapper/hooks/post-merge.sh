#!/usr/bin/env bash
# post-merge hook: reinstall dependencies when the lockfile changed.
source "$GIT_SYNC_HOME/lib/ui.bash"

changed() {
  git diff-tree -r --name-only --no-commit-id ORIG_HEAD HEAD | grep -qx "$1"
}

if changed package-lock.json; then
  ui_note "package-lock.json changed: npm ci"
  npm ci
fi
