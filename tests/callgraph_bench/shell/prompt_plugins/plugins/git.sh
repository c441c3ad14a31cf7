# shellcheck shell=bash
# bashline plugin: the current branch, starred when the work tree is dirty.

git_branch() {
  git symbolic-ref --quiet --short HEAD 2>/dev/null ||
    git rev-parse --short HEAD 2>/dev/null
}

git_dirty() {
  ! git diff --quiet --ignore-submodules HEAD 2>/dev/null
}

segment_git() {
  local branch
  branch=$(git_branch) || return 0
  if git_dirty; then
    bashline_segment yellow "$branch*"
  else
    bashline_segment green "$branch"
  fi
}

git_prompt_init() {
  command -v git >/dev/null && bashline_register segment_git
}
