#!/usr/bin/env bash
# Install the Debian packages in ci/packages.txt that are missing.  As root it
# runs apt-get; otherwise it names exactly what to install and fails.
set -u
cd "$(dirname "$0")/.."
missing=()
for p in $(grep -v '^#' ci/packages.txt); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages; as root run:"
  echo "  apt-get update && apt-get install -y ${missing[*]}"
  exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"
