#!/usr/bin/env bash
# Convert the old "key: value" deploy.cfg into deploy.conf.
set -eu

config_get() {
  sed -n "s/^$1:[[:space:]]*//p" deploy.cfg | head -n 1
}

for key in app.name app.service deploy.hosts ssh.user; do
  printf '%s = %s\n' "$key" "$(config_get "$key")"
done >deploy.conf
