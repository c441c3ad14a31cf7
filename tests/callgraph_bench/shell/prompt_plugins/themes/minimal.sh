# shellcheck shell=bash
theme_separator() {
  printf ' '
}

theme_prompt_char() {
  if [[ $1 -eq 0 ]]; then
    printf '$'
  else
    colorize red '$'
  fi
}
