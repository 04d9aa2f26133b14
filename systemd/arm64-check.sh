#!/usr/bin/env bash
# The Raspberry Pi check we can run here: install jasscam with systemd/install.sh into an
# emulated arm64 Debian bookworm (Raspberry Pi OS's base) and replay the bundled game
# there; the score sheet must equal this machine's. It is the only check of the arm64
# wheels (numpy, OpenCV, onnxruntime), the install script and the model on the Pi's
# architecture. Slow (debootstrap ~3 min, pip ~5 min, the emulated replay 10+ min), so
# it is a make target, not part of CI. Needs root and the network (apt, PyPI).
#
#   sudo systemd/arm64-check.sh            # root kept in build/arm64-root for reruns
#   ARM64_ROOT=/var/tmp/pi MODELS=/path/to/models sudo -E systemd/arm64-check.sh
#   DEBIAN_MIRROR=http://mirror.example/debian sudo -E systemd/arm64-check.sh
#
# debootstrap fetches from the Debian mirror the host's apt already uses (a local mirror,
# a proxy or a snapshot keeps working, and no address is written here); DEBIAN_MIRROR
# overrides it, e.g. on a host that is not Debian.
#
# See also ../shared/notes/arm64-emulation.md. picamera2/libcamera are not in Debian's
# arm64 archive, so install.sh skips them here and the camera itself is not exercised.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
ROOT=$(realpath -m "${ARM64_ROOT:-build/arm64-root}")
OUT="$REPO/build/arm64-check"
MODELS=${MODELS:-$REPO/models}
mkdir -p "$OUT"

if [ "$(id -u)" -ne 0 ]; then echo "arm64-check: run as root" >&2; exit 1; fi
if [ ! -f "$MODELS/card-detector.onnx" ]; then
  echo "arm64-check: no recogniser models in $MODELS (train them, or set MODELS=DIR)" >&2
  exit 1
fi

echo "==> host tools (qemu-user-static, binfmt, debootstrap)"
if ! command -v debootstrap >/dev/null || [ ! -e /usr/bin/qemu-aarch64-static ]; then
  apt-get update -q
  apt-get install -y -q qemu-user-static binfmt-support debootstrap
fi
mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
update-binfmts --enable qemu-aarch64 2>/dev/null || true

# The Debian archive (not its security or ports archives) among the host's apt index
# targets: apt itself resolves sources.list, deb822 .sources files and their options.
host_debian_mirror() {
  apt-get indextargets --format '$(TARGET_OF) $(ORIGIN) $(LABEL) $(SITE)' 2>/dev/null |
    awk '$1 == "deb" && $2 == "Debian" && $3 == "Debian" { print $4; exit }'
}

if [ ! -x "$ROOT/usr/bin/python3" ]; then
  mirror=${DEBIAN_MIRROR:-$(host_debian_mirror)}
  if [ -z "$mirror" ]; then
    apt-get update -q  # index targets are listed once their Release files are fetched
    mirror=$(host_debian_mirror)
  fi
  if [ -z "$mirror" ]; then
    echo "arm64-check: the host's apt sources name no Debian archive; set DEBIAN_MIRROR=URL" >&2
    exit 1
  fi
  echo "==> debootstrap arm64 bookworm into $ROOT from $mirror"
  debootstrap --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,python3-pip,ca-certificates,passwd,tar \
    bookworm "$ROOT" "$mirror"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/"
mountpoint -q "$ROOT/proc" || mount --bind /proc "$ROOT/proc"
trap 'umount "$ROOT/proc" 2>/dev/null || true' EXIT
test "$(chroot "$ROOT" uname -m)" = aarch64

echo "==> snapshot of the checkout (tracked files, the models, the demo recording)"
rm -rf "$ROOT/src/jasscam" && mkdir -p "$ROOT/src/jasscam"
git ls-files -z | tar --null -T - -cf - | tar -C "$ROOT/src/jasscam" -xf -
mkdir -p "$ROOT/src/jasscam/models" && cp "$MODELS"/* "$ROOT/src/jasscam/models/"

# The reference runs the very same snapshot (code and models) on this machine, so only
# the architecture differs between the two runs.
echo "==> reference score on $(uname -m), from the snapshot"
(cd "$ROOT/src/jasscam" && PYTHONPATH=. "$REPO/.venv/bin/python" -c \
  "import jasscam, sys; assert jasscam.__file__.startswith('$ROOT'), jasscam.__file__" && \
  PYTHONPATH=. "$REPO/.venv/bin/python" -m jasscam demo --fast --no-dashboard --threads 1) | tee "$OUT/host.txt"

echo "==> systemd/install.sh inside the arm64 root"
chroot "$ROOT" /src/jasscam/systemd/install.sh --no-start

echo "==> the bundled game, replayed on (emulated) arm64"
chroot "$ROOT" /opt/jasscam/venv/bin/python -c "import platform, numpy, cv2, onnxruntime; print(platform.machine(), numpy.__version__, cv2.__version__, onnxruntime.__version__)" | tee "$OUT/arm64-versions.txt"
chroot "$ROOT" /opt/jasscam/venv/bin/jasscam demo --fast --no-dashboard --threads 1 | tee "$OUT/arm64.txt"

# Everything from the tricks to the verdict must match, line for line.
strip() { sed -n '/^Round /,$p' "$1"; }
if diff <(strip "$OUT/host.txt") <(strip "$OUT/arm64.txt"); then
  echo "arm64-check: the score on arm64 equals the score on $(uname -m)"
else
  echo "arm64-check: the arm64 replay differs (see $OUT)" >&2
  exit 1
fi
