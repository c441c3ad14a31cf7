# shellcheck shell=bash
color_code() {
  case $1 in
    red) tput setaf 1 ;;
    green) tput setaf 2 ;;
    yellow) tput setaf 3 ;;
    blue) tput setaf 4 ;;
    reset) tput sgr0 ;;
  esac
}

colorize() {
  printf '\[%s\]%s\[%s\]' "$(color_code "$1")" "$2" "$(color_code reset)"
}
