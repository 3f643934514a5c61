#!/usr/bin/env bash
# Install the Debian packages that are missing.
#   ci/deps.sh       ci/packages-run.txt + ci/packages.txt (make check)
#   ci/deps.sh run   ci/packages-run.txt only (make run: compiler, libbpf, bpftool)
# As root it runs apt-get; otherwise it names exactly what to install and fails.
set -u
cd "$(dirname "$0")/.."
lists=(ci/packages-run.txt)
[ "${1:-}" = run ] || lists+=(ci/packages.txt)
missing=()
for p in $(grep -hv '^#' "${lists[@]}"); do
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
