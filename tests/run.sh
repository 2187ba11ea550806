#!/usr/bin/env bash
# The project's test command: installs what the suite needs, then lint + the whole suite.
# Root on Debian/Ubuntu installs the system packages (mosquitto broker, Arm cross toolchain and
# qemu, systemd tools, libsystemd headers for systemd-python); elsewhere it checks for them.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(mosquitto libsystemd-dev pkg-config gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-user systemd openssl espeak-ng sox)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    else
        echo "missing system packages: ${missing[*]} (sudo apt-get install them)" >&2
        exit 1
    fi
fi

# .[train] brings PyTorch (CPU) for the toolkit's tests; the daemon never imports it. .[voice]
# (pocketsphinx, wyoming) for the voice path, whose tests speak with espeak-ng and sox.
python3 -m pip install -q -e '.[test,train,voice]'
# A wheel install ships byte-compiled modules; an editable checkout (with PYTHONDONTWRITEBYTECODE
# set, as here and in the unit) would compile them at every start, which costs the daemon time
# and a few MB of RSS that a device never pays. Compile once so the tests measure what ships.
python3 -m compileall -q -j 0 agent devices kernels >/dev/null
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m pytest -q "$@"
