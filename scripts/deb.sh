#!/usr/bin/env bash
# Builds a Debian package of skillhost (`make deb`): installs into a package root with PREFIX=/usr
# (scripts/install.sh), declares the dependencies dpkg-shlibdeps finds for every ELF file in it (the
# Swift runtime is inside the package, so only system libraries such as libc6 remain), and runs
# dpkg-deb --build.
#
# usage: scripts/deb.sh BIN_DIR OUT_DIR [MORE_SKILL.so ...]   → OUT_DIR/skillhost_VERSION_ARCH.deb
set -euo pipefail
bin=$1; out=$(mkdir -p "$2" && cd "$2" && pwd); shift 2
command -v dpkg-shlibdeps >/dev/null || { echo "deb: dpkg-shlibdeps is needed (apt-get install dpkg-dev)" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
root="$work/root"
bash "$(dirname "$0")/install.sh" "$bin" /usr "$root" "$@" >/dev/null
version=$("$root/usr/bin/skillhost" --version | awk 'NR == 1 { print $2 }')
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps reads debian/control of the source package: a minimal one in the scratch folder.
mkdir -p "$work/src/debian"
printf 'Source: skillhost\n\nPackage: skillhost\nArchitecture: any\n' > "$work/src/debian/control"
mapfile -t elfs < <(find "$root" -type f \( -name '*.so' -o -path '*/bin/*' \) | sort)
depends=$(cd "$work/src" && dpkg-shlibdeps -O --ignore-missing-info -l"$root/usr/lib/skillhost" "${elfs[@]}" 2>/dev/null \
          | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
size=$(du -sk "$root/usr" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: skillhost
Version: $version
Architecture: $arch
Maintainer: skillhost maintainers <skillhost@localhost>
Installed-Size: $size
Depends: $depends
Section: devel
Priority: optional
Homepage: https://github.com/skillhost/skillhost
Description: host for agent skills loaded from shared libraries
 skillhost loads agent skills (.so files, written in Swift or C against one
 C header) through a stable ABI, runs each in a sandboxed worker process, and
 serves them to a terminal, to scripts and to MCP clients.
CONTROL
deb="$out/skillhost_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "$deb"
