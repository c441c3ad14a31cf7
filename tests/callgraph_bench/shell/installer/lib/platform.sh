# shellcheck shell=bash
os_name() {
  case $(uname -s) in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    *) return 1 ;;
  esac
}

cpu_arch() {
  case $(uname -m) in
    x86_64 | amd64) echo x86_64 ;;
    arm64 | aarch64) echo arm64 ;;
    *) return 1 ;;
  esac
}

has() {
  command -v "$1" >/dev/null 2>&1
}

in_path() {
  case ":$PATH:" in
    *":$1:"*) return 0 ;;
  esac
  return 1
}
