# shellcheck shell=bash
# ~/.bashrc: interactive settings, then every file under ~/.dotfiles/functions.
[[ $- == *i* ]] || return

DOTFILES=${DOTFILES:-$HOME/.dotfiles}
HISTCONTROL=ignoreboth
shopt -s histappend checkwinsize

for f in "$DOTFILES"/functions/*.bash; do
  [ -r "$f" ] && . "$f"
done
unset f

if command -v direnv >/dev/null; then
  eval "$(direnv hook bash)"
fi

on_event exit save_history
if declare -f dev_motd >/dev/null; then
  dev_motd
fi
# a host's ~/.bashrc.local may set BASHRC_STARTUP to its own commands
eval "${BASHRC_STARTUP:-fire startup}"
