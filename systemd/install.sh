#!/usr/bin/env bash
# Install jasscam as a service on Raspberry Pi OS (Debian bookworm, arm64).
#
#   sudo systemd/install.sh            # from a checkout (or an unpacked release)
#   sudo systemd/install.sh --no-start # install, enable, but do not start (images, tests)
#
# What it does, in order (each step is idempotent, so re-running upgrades in place):
#   1. apt: python3-venv, and python3-picamera2 (the Pi camera stack; only from the
#      Raspberry Pi archive, so it is skipped with a note where apt does not have it).
#   2. a system user `jasscam` in group `video` (camera devices).
#   3. the source copied to /opt/jasscam/src and a virtualenv /opt/jasscam/venv made with
#      --system-site-packages (so apt's picamera2 and libcamera are importable), the
#      product installed into it with pip.
#   4. /etc/jasscam/jasscam.toml (only if absent: local edits are kept).
#   5. the unit to /etc/systemd/system/jasscam.service, enabled and (re)started.
# Environment: PREFIX (default /opt/jasscam), JASSCAM_PIP_ARGS (extra pip arguments,
# e.g. --no-index --find-links=/wheels for an offline install).
set -euo pipefail

PREFIX=${PREFIX:-/opt/jasscam}
START=1
for arg in "$@"; do
  case "$arg" in
    --no-start) START=0 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 1
fi
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$SRC/pyproject.toml" ]; then
  echo "install.sh: $SRC does not look like a jasscam checkout (no pyproject.toml)" >&2
  exit 1
fi
HAVE_SYSTEMD=0
if [ -d /run/systemd/system ]; then HAVE_SYSTEMD=1; fi

echo "==> apt packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends python3 python3-venv python3-pip ca-certificates
if apt-cache show python3-picamera2 >/dev/null 2>&1; then
  apt-get install -y -q --no-install-recommends python3-picamera2
else
  echo "    python3-picamera2 is not in this system's apt sources (not Raspberry Pi OS?);"
  echo "    the Pi camera module will not be usable, a USB camera will (camera.source = \"opencv\")."
fi

echo "==> user jasscam"
getent group video >/dev/null || groupadd --system video
if ! id jasscam >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/jasscam --no-create-home --shell /usr/sbin/nologin \
    --groups video jasscam
else
  usermod -a -G video jasscam
fi

echo "==> $PREFIX"
mkdir -p "$PREFIX"
rm -rf "$PREFIX/src.new"
mkdir -p "$PREFIX/src.new"
# Copy the source without the developer's virtualenv, caches and git metadata.
tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude='*/__pycache__' --exclude=./build \
  --exclude='*.egg-info' -cf - . | tar -C "$PREFIX/src.new" -xf -
rm -rf "$PREFIX/src"
mv "$PREFIX/src.new" "$PREFIX/src"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
  python3 -m venv --system-site-packages "$PREFIX/venv"
fi
# shellcheck disable=SC2086
# Editable: the recogniser finds its models in $PREFIX/src/models, next to the code.
"$PREFIX/venv/bin/pip" install -q ${JASSCAM_PIP_ARGS:-} -e "$PREFIX/src"
"$PREFIX/venv/bin/jasscam" --help >/dev/null

echo "==> /etc/jasscam/jasscam.toml"
mkdir -p /etc/jasscam
if [ ! -f /etc/jasscam/jasscam.toml ]; then
  install -m 0644 "$SRC/systemd/jasscam.toml" /etc/jasscam/jasscam.toml
fi
"$PREFIX/venv/bin/jasscam" run --check-config --config /etc/jasscam/jasscam.toml

echo "==> systemd unit"
install -m 0644 "$SRC/systemd/jasscam.service" /etc/systemd/system/jasscam.service
if [ "$HAVE_SYSTEMD" -eq 1 ]; then
  systemctl daemon-reload
  systemctl enable jasscam.service
  if [ "$START" -eq 1 ]; then
    systemctl restart jasscam.service
    echo "jasscam is running: journalctl -u jasscam -f; dashboard on port 8080"
  fi
else
  echo "    systemd is not running here (a chroot?): unit installed, not enabled"
fi
echo "done"
