# shellcheck shell=bash
# Naming of the archives.

archive_name() {
  echo "backup-$(hostname -s)-$(timestamp).tar.gz"
}
