#!/usr/bin/env bash
# Build the Aivory runner image OFFLINE, from Debian packages only (no image registry needed).
#
#   bash sandbox/scripts/build-image.sh [--image NAME] [--force]
#
# debootstrap a minimal bookworm rootfs from the same Debian mirror this machine's apt uses,
# apt-get the Python stack into it, add the `sandbox` user (uid/gid 1000, home /workspace) and
# the worker (/opt/aivory), then `docker import` it with the runtime contract (user, workdir,
# env, label). sandbox/Dockerfile.runner produces the same contract from python:3.12-slim for
# machines that can pull base images.
#
# Idempotent: an existing image built from the same sandbox/runner files (label
# org.aivory.runner.source) is left alone unless --force; one built from other runner files is
# rebuilt. Needs root, debootstrap and a reachable dockerd; takes about 2–5 minutes.
# Environment overrides: IMAGE, DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR ("none" skips security).
set -euo pipefail

IMAGE="${IMAGE:-aivory-runner:latest}"
FORCE=0
SUITE=bookworm
PROTOCOL=1 # keep in step with PROTOCOL in sandbox/runner/worker.py

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --image) [ $# -ge 2 ] || { echo "build-image: --image needs a value" >&2; exit 2; }; IMAGE="$2"; shift 2 ;;
    --image=*) IMAGE="${1#--image=}"; shift ;;
    --force) FORCE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "build-image: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done

START=$(date +%s)
log() { printf '[build-image %3ss] %s\n' "$(($(date +%s) - START))" "$*"; }
die() { printf 'build-image: ERROR: %s\n' "$*" >&2; exit 1; }

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNNER_DIR="$(cd "$HERE/../runner" && pwd)"

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap and chroot need it)"
command -v docker >/dev/null || die "docker CLI not found"
docker info >/dev/null 2>&1 || die "dockerd is not reachable (start it: dockerd &)"

# The runner files' fingerprint, stored as a label: an image built from other runner files (an
# older worker.py) is rebuilt even without --force, so CI never tests a stale worker.
SOURCE_HASH="$(cd "$RUNNER_DIR" && find . -type f ! -path '*/__pycache__/*' ! -path './mpl-cache/*' -print0 |
  LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
if [ "$FORCE" -eq 0 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
  BUILT_FROM="$(docker image inspect -f '{{index .Config.Labels "org.aivory.runner.source"}}' "$IMAGE" 2>/dev/null || true)"
  if [ -z "$BUILT_FROM" ] || [ "$BUILT_FROM" = "<no value>" ]; then
    log "image $IMAGE already exists (not built by this script: runner files not checked); use --force to rebuild"
    exit 0
  elif [ "$BUILT_FROM" = "$SOURCE_HASH" ]; then
    log "image $IMAGE already exists and matches sandbox/runner ($SOURCE_HASH); use --force to rebuild"
    exit 0
  fi
  log "image $IMAGE was built from other runner files ($BUILT_FROM, now $SOURCE_HASH): rebuilding"
fi

command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install -y debootstrap)"
[ -f "$RUNNER_DIR/worker.py" ] || die "missing $RUNNER_DIR/worker.py"

# --- Which Debian mirror? The one this machine's apt already uses (it is known to be reachable).
apt_source_uris() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 ("URIs: a b") and one-line ("deb [opts] URI suite comps") formats.
    awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$f"
    sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\{0,1\}\([^[:space:]]\+\).*/\2/p' "$f"
  done
}
MIRROR="${DEBIAN_MIRROR:-$(apt_source_uris | grep -E '/debian/?$' | head -n1 || true)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
MIRROR="${MIRROR%/}"
SECURITY="${DEBIAN_SECURITY_MIRROR:-$(apt_source_uris | grep -E '/debian-security/?$' | head -n1 || true)}"
SECURITY="${SECURITY%/}"
[ "$SECURITY" = none ] && SECURITY=""
log "image: $IMAGE; mirror: $MIRROR; security: ${SECURITY:-(none)}"

KEYRING_ARGS=()
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] &&
  KEYRING_ARGS=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)

# --- Work on disk (not /tmp, which may be a small tmpfs); always clean up, mounts first.
WORK="$(mktemp -d /var/tmp/aivory-runner.XXXXXX)"
ROOT="$WORK/rootfs"
cleanup() {
  local rc=$?
  if mountpoint -q "$ROOT/proc" 2>/dev/null; then umount -l "$ROOT/proc" || true; fi
  rm -rf --one-file-system "$WORK"
  if [ $rc -ne 0 ]; then echo "build-image: FAILED (exit $rc) after $(($(date +%s) - START))s" >&2; fi
}
trap cleanup EXIT

# The same packages as the Dockerfile's pip list, from Debian. python-pptx has no Debian package:
# the worker's `ready` message reports which expected modules are importable.
PACKAGES=(
  python3 python3-numpy python3-pandas python3-matplotlib python3-docx python3-openpyxl
  python3-xlsxwriter python3-pypdf python3-pil python3-bs4 python3-lxml weasyprint
  fonts-noto-cjk fonts-dejavu-core fontconfig
  procps # kill/ps: the sidecar interrupts the worker with `docker exec … kill -INT <pid>`
)

log "debootstrap --variant=minbase $SUITE (a minute or two)"
debootstrap --variant=minbase "${KEYRING_ARGS[@]}" "$SUITE" "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
  tail -n 40 "$WORK/debootstrap.log" >&2
  die "debootstrap failed (log above)"
}

log "configuring apt and dpkg in the rootfs"
{
  echo "deb $MIRROR $SUITE main"
  echo "deb $MIRROR $SUITE-updates main"
  [ -n "$SECURITY" ] && echo "deb $SECURITY $SUITE-security main"
} >"$ROOT/etc/apt/sources.list"
# Keep the image small: no docs/man/locales from now on, no recommends, no services started.
cat >"$ROOT/etc/dpkg/dpkg.cfg.d/01-aivory-nodoc" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-exclude=/usr/share/lintian/*
EOF
cat >"$ROOT/etc/apt/apt.conf.d/01-aivory" <<'EOF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Languages "none";
EOF
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"

mount -t proc proc "$ROOT/proc"
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }

log "apt-get update"
in_root apt-get update -qq >"$WORK/apt.log" 2>&1 || { tail -n 40 "$WORK/apt.log" >&2; die "apt-get update failed"; }
# Debian's scipy (pulled in by matplotlib → fonttools) depends on pythran, a build-time compiler
# that drags in gcc, g++, boost and -dev packages: ~500 MB the sandbox never needs (and a C
# toolchain it is better without). An empty package of the same name satisfies the dependency.
log "installing an empty python3-pythran (build-time only; saves ~500 MB)"
mkdir -p "$WORK/stub/DEBIAN"
cat >"$WORK/stub/DEBIAN/control" <<'EOF'
Package: python3-pythran
Version: 99:0+aivory
Architecture: all
Maintainer: Aivory <noreply@aivory.invalid>
Description: empty stand-in for pythran, which scipy needs only at build time
EOF
dpkg-deb --build "$WORK/stub" "$ROOT/tmp/python3-pythran-stub.deb" >/dev/null
in_root dpkg -i /tmp/python3-pythran-stub.deb >>"$WORK/apt.log" 2>&1 || die "installing the pythran stub failed"
in_root apt-mark hold python3-pythran >/dev/null
rm -f "$ROOT/tmp/python3-pythran-stub.deb"

log "apt-get install ${PACKAGES[*]}"
in_root apt-get install -y -q "${PACKAGES[@]}" >>"$WORK/apt.log" 2>&1 || {
  tail -n 40 "$WORK/apt.log" >&2
  die "apt-get install failed"
}

log "adding user sandbox (1000:1000, home /workspace) and /opt/aivory"
in_root groupadd -g 1000 sandbox
in_root useradd -u 1000 -g 1000 -d /workspace -M -s /bin/sh sandbox
install -d -m 0755 -o 1000 -g 1000 "$ROOT/workspace"
install -d -m 1777 "$ROOT/tmp"
install -d -m 0755 "$ROOT/opt/aivory"
cp -R "$RUNNER_DIR/." "$ROOT/opt/aivory/"
find "$ROOT/opt/aivory" -name '__pycache__' -prune -exec rm -rf {} +
chown -R 0:0 "$ROOT/opt/aivory"
chmod -R a+rX,go-w "$ROOT/opt/aivory"
# Bytecode and matplotlib's font list are built now, because at run time the root filesystem is
# read-only and MPLCONFIGDIR is an empty tmpfs: the worker seeds it from /opt/aivory/mpl-cache
# instead of re-scanning the (large) CJK fonts on every session's first `import matplotlib`.
in_root python3 -m compileall -q /opt/aivory
in_root fc-cache -f >/dev/null
in_root env MPLCONFIGDIR=/opt/aivory/mpl-cache MATPLOTLIBRC=/opt/aivory/matplotlibrc \
  python3 -c 'import matplotlib.font_manager as fm; fm.fontManager' >>"$WORK/apt.log" 2>&1 ||
  die "matplotlib font cache build failed"
chmod -R a+rX "$ROOT/opt/aivory"

log "checking the rootfs"
in_root env MATPLOTLIBRC=/opt/aivory/matplotlibrc MPLCONFIGDIR=/tmp/mpl-check python3 -c '
import importlib.util, sys
want = ["numpy", "pandas", "matplotlib", "docx", "openpyxl", "xlsxwriter", "pypdf", "PIL", "bs4", "lxml", "weasyprint"]
missing = [m for m in want if importlib.util.find_spec(m) is None]
if missing:
    sys.exit("missing modules: " + ", ".join(missing))
' || die "python modules missing from the rootfs"

log "cleaning apt caches, docs and logs"
umount "$ROOT/proc"
rm -f "$ROOT/usr/sbin/policy-rc.d"
in_root apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*.bin "$ROOT"/var/cache/debconf/*-old \
  "$ROOT"/var/lib/dpkg/*-old "$ROOT"/var/log/* "$ROOT"/tmp/* "$ROOT"/var/tmp/* \
  "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/usr/share/info/* \
  "$ROOT"/usr/share/locale/* "$ROOT"/usr/share/lintian/* "$ROOT"/root/.cache
# Test suites are dead weight at run time (pandas' alone is tens of MB).
for d in pandas/tests numpy/tests matplotlib/tests PIL/tests; do
  rm -rf "$ROOT/usr/lib/python3/dist-packages/$d"
done
find "$ROOT/usr/lib/python3/dist-packages/numpy" -type d -name tests -prune -exec rm -rf {} +
log "rootfs size: $(du -sh --one-file-system "$ROOT" | cut -f1)"

log "docker import -> $IMAGE"
OLD_ID="$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
tar --numeric-owner -C "$ROOT" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
  docker import \
    --change 'USER 1000:1000' \
    --change 'WORKDIR /workspace' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV MPLBACKEND=Agg HOME=/workspace MPLCONFIGDIR=/tmp/matplotlib PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 LANG=C.UTF-8' \
    --change 'ENV MATPLOTLIBRC=/opt/aivory/matplotlibrc XDG_CACHE_HOME=/tmp/.cache' \
    --change "LABEL org.aivory.runner.protocol=$PROTOCOL org.aivory.runner.build=debootstrap-$SUITE org.aivory.runner.source=$SOURCE_HASH" \
    --change 'CMD ["sleep","infinity"]' \
    --message "aivory runner ($SUITE, offline build)" \
    - "$IMAGE" >/dev/null
NEW_ID="$(docker image inspect -f '{{.Id}}' "$IMAGE")"
# A forced rebuild leaves the old image dangling; drop it unless a container still uses it.
if [ -n "$OLD_ID" ] && [ "$OLD_ID" != "$NEW_ID" ]; then docker image rm "$OLD_ID" >/dev/null 2>&1 || true; fi

log "smoke test"
docker run --rm --network none "$IMAGE" python3 -c 'import numpy, pandas, matplotlib, docx, openpyxl, pypdf, PIL, bs4, weasyprint, scipy.optimize, scipy.stats' ||
  die "the imported image cannot import the Python stack"

SIZE="$(docker image inspect -f '{{.Size}}' "$IMAGE")"
log "done: $IMAGE ($NEW_ID), $((SIZE / 1024 / 1024)) MiB, in $(($(date +%s) - START))s"
