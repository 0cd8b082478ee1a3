#!/usr/bin/env bash
# Installs skillhost into DESTDIR/PREFIX (`make install`, and `make deb` into a package root):
#   bin/skillhost, bin/skillhost-worker, bin/skillhost-scan   RUNPATH $ORIGIN/../lib/skillhost
#   lib/skillhost/lib*.so                          the Swift runtime they (and Swift skills) load: one copy
#   lib/skillhost/skills.d/*.so                    the bundled skills (the search path's system folder)
#   include/skillhost/skillhost.h, lib/pkgconfig/skillhost.pc   for C skills: cc $(pkg-config --cflags skillhost)
#   share/skillhost/sdk/                           SkillKit and the header as a SwiftPM package, for `skillhost new`
#   share/man/man1/skillhost.1, bash/zsh/fish completions   made by `skillhost man` / `skillhost completions`
# No build path stays in what runs: RUNPATHs are rewritten with patchelf, debug info is stripped.
#
# usage: scripts/install.sh BIN_DIR PREFIX [DESTDIR] [MORE_SKILL.so ...]
#   BIN_DIR: where skillhost, skillhost-worker, skillhost-scan and the bundled lib*Skill.so were built.
set -euo pipefail
bin=$(cd "$1" && pwd); prefix=$2; destdir=${3:-}; shift $(( $# >= 3 ? 3 : $# ))
here=$(cd "$(dirname "$0")/.." && pwd)
root="$destdir$prefix"
lib="$root/lib/skillhost"
for tool in patchelf strip ldd; do
  command -v "$tool" >/dev/null || { echo "install: $tool is needed (apt-get install patchelf binutils libc-bin)" >&2; exit 1; }
done

install -d "$root/bin" "$lib/skills.d" "$root/include/skillhost" "$root/lib/pkgconfig" \
           "$root/share/skillhost/sdk/Sources/SkillABI/include" "$root/share/man/man1" \
           "$root/share/bash-completion/completions" "$root/share/fish/vendor_completions.d"
install -m 0755 "$bin/skillhost" "$bin/skillhost-worker" "$bin/skillhost-scan" "$root/bin/"

skills=()
for s in CalendarSkill WeatherSkill ReminderSkill UnitsSkill; do
  [ -f "$bin/lib$s.so" ] || { echo "install: $bin/lib$s.so is missing (make build)" >&2; exit 1; }
  skills+=("$bin/lib$s.so")
done
for extra in "$@"; do [ -f "$extra" ] && skills+=("$extra"); done
for s in "${skills[@]}"; do install -m 0755 "$s" "$lib/skills.d/"; done

# The Swift runtime: every library the binaries and the skills load from the toolchain's folder.
runtime=$(ldd "$bin/skillhost" | awk '$1 == "libswiftCore.so" { print $3 }')
runtime=$(dirname "$runtime")
for f in "$root/bin/skillhost" "$root/bin/skillhost-worker" "$root/bin/skillhost-scan" "$lib"/skills.d/*.so; do
  ldd "$f" | awk -v d="$runtime/" 'index($3, d) == 1 { print $3 }'
done | sort -u | while read -r so; do install -m 0644 "$so" "$lib/"; done

# Debug info and the embedded Swift module (.swift_ast) hold build paths; the runtime needs neither.
strip --strip-unneeded -R .swift_ast -R .comment "$root/bin/skillhost" "$root/bin/skillhost-worker" "$root/bin/skillhost-scan" "$lib"/*.so "$lib"/skills.d/*.so
patchelf --set-rpath '$ORIGIN/../lib/skillhost' "$root/bin/skillhost" "$root/bin/skillhost-worker" "$root/bin/skillhost-scan"
for so in "$lib"/*.so; do patchelf --set-rpath '$ORIGIN' "$so"; done
# Skills are loaded through /proc/self/fd/N, where $ORIGIN means nothing: the host's workers find the
# runtime through LD_LIBRARY_PATH (ChildProcess.shippedRuntime); the installed path is for other loaders.
for so in "$lib"/skills.d/*.so; do
  if readelf -d "$so" | grep -q 'R\(UN\)\?PATH'; then patchelf --set-rpath "$prefix/lib/skillhost" "$so"; fi
done

# For C skills: the header and pkg-config (relocatable: the prefix is found from the .pc file).
install -m 0644 "$here/Sources/SkillABI/include/skillhost.h" "$root/include/skillhost/"
version=$("$bin/skillhost" --version | awk 'NR == 1 { print $2 }')
cat > "$root/lib/pkgconfig/skillhost.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include

Name: skillhost
Description: The skillhost skill ABI (skillhost.h): everything a C skill needs, nothing to link
Version: $version
Cflags: -I\${includedir}/skillhost
PC

# For Swift skills: the SDK as a package `skillhost new` points projects at.
sdk="$root/share/skillhost/sdk"
install -m 0644 "$here/Sources/SkillABI/include/skillhost.h" "$sdk/Sources/SkillABI/include/"
install -m 0644 "$here/Sources/SkillABI/skillhost_abi_checks.c" "$sdk/Sources/SkillABI/"
(cd "$here/Sources" && find SkillKit -name '*.swift') | while read -r f; do
  install -D -m 0644 "$here/Sources/$f" "$sdk/Sources/$f"
done
cat > "$sdk/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

// The skillhost SDK as installed (PREFIX/share/skillhost/sdk): the skill ABI header and SkillKit,
// which `skillhost new` projects depend on. Build skills with the toolchain `skillhost --version` names.
let package = Package(
    name: "skillhost",
    products: [.library(name: "SkillKit", targets: ["SkillKit"])],
    targets: [
        .target(name: "SkillABI", path: "Sources/SkillABI"),
        .target(name: "SkillKit", dependencies: ["SkillABI"]),
    ]
)
SWIFT

# Manual page and completions, from the same table as the help.
"$root/bin/skillhost" man > "$root/share/man/man1/skillhost.1"
"$root/bin/skillhost" completions bash > "$root/share/bash-completion/completions/skillhost"
"$root/bin/skillhost" completions fish > "$root/share/fish/vendor_completions.d/skillhost.fish"
zsh_dir="$root/share/zsh/site-functions"
[ "$prefix" = /usr ] && zsh_dir="$root/share/zsh/vendor-completions"  # Debian's folder for packages
install -d "$zsh_dir"
"$root/bin/skillhost" completions zsh > "$zsh_dir/_skillhost"
echo "installed skillhost $version into $root"
