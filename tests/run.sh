#!/usr/bin/env bash
# The project's test command: installs what the suite needs, then lint + the whole suite.
# Root on Debian/Ubuntu installs the system packages (mosquitto broker, Arm cross toolchain and
# qemu, systemd tools, libsystemd headers for systemd-python, venv and Python headers); elsewhere
# it checks for them. Python packages go into the active virtualenv, else into .venv here
# (Debian 12 and Raspberry Pi OS refuse pip installs into the system Python).
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(mosquitto libsystemd-dev pkg-config gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-user systemd openssl espeak-ng sox python3-venv python3-dev)
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

if [[ -n ${VIRTUAL_ENV:-} ]]; then
    py=$VIRTUAL_ENV/bin/python
else
    # system site packages stay visible: what the distribution (or an image) already installed,
    # PyTorch included, is used instead of being downloaded again
    [[ -x .venv/bin/python ]] || python3 -m venv --system-site-packages .venv
    py=.venv/bin/python
fi
# .[train] brings PyTorch (CPU) for the toolkit's tests; the daemon never imports it. .[voice]
# (pocketsphinx, wyoming) for the voice path, whose tests speak with espeak-ng and sox.
"$py" -m pip install -q -e '.[test,train,voice]'
# A wheel install ships byte-compiled modules; an editable checkout (with PYTHONDONTWRITEBYTECODE
# set, as here and in the unit) would compile them at every start, which costs the daemon time
# and a few MB of RSS that a device never pays. Compile once so the tests measure what ships.
"$py" -m compileall -q -j 0 agent devices kernels >/dev/null
"$py" -m ruff check .
"$py" -m ruff format --check .
"$py" -m pytest -q "$@"
