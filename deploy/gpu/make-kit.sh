#!/usr/bin/env bash
# Assembles what deploy/gpu/gpu-check.sh needs beside the repository on a CUDA machine that has a pip PyTorch but no
# Java, no network and no DJL natives, into DIR (default .gpukit, ignored by git), at most 64 MiB:
#   jre.tar.xz      a jlink'd Java 17 runtime (the modules the nodes use), uncompressed inside, xz outside, with the
#                   system libraries its font and image code links, fontconfig and two fonts (lib/fonts), which that
#                   machine may lack
#   lib.tar.xz      the jars a GPU run loads (those deploy/gpu/kit-jars.txt keeps: the project's own and the runtime
#                   dependencies any JVM of a CPU rehearsal of gpu-check.sh loaded a class from, and any it does not
#                   name), without DJL's PyTorch natives and JNI (the JNI is built there against the machine's torch)
#                   and with the tokenizers jar cut to its linux-x86_64 library; each jar stored uncompressed, so that
#                   xz over all of them gets below what the deflated jars take
#   jni-include/    jni.h and jni_md.h of this JDK (the JNI build there has no JDK)
# Run from the repository root; it builds the jars first (mvn -o package, tests skipped; -Pcuda is not needed). Needs
# python3 (re-stores the jars) and xz; takes minutes. kit-jars.txt names jars without their versions, kept or left out;
# after a change of dependencies (make-kit names any jar the list does not), refresh it from a rehearsal over every
# built jar: put them all in W/lib (gpu-check.sh unpacks the kit's only where W/lib is missing), run
# `GPUCHECK_WORK=W GPUCHECK_DEVICE=cpu GPUCHECK_SMALL=1 GPUCHECK_CLASSLOG=1 GPUCHECK_CAP_SCALE=4 OUT=DIR
# deploy/gpu/gpu-check.sh` (every step must pass): DIR/jars-loaded.txt are the jars to keep, with the resource-only
# ones the list's header names, and the others are left out.
#   deploy/gpu/make-kit.sh [DIR]
set -euo pipefail
DIR="${1:-.gpukit}"
[[ -f pom.xml && -d deploy/gpu ]] || { echo "make-kit: run from the repository root" >&2; exit 2; }
JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
LIMIT_MIB=64
rm -rf "$DIR"; mkdir -p "$DIR/lib" "$DIR/jni-include/linux"
trap 'rm -rf "$DIR/lib" "$DIR/lib.deps" "$DIR/jre.tmp"' EXIT
cp "$JAVA_HOME/include/jni.h" "$DIR/jni-include/"; cp "$JAVA_HOME/include/linux/jni_md.h" "$DIR/jni-include/linux/"

# the jars: each module's own (not the shaded node jars, which carry the CPU natives) and the runtime dependencies
EXCLUDED=pytorch-native-cpu,pytorch-jni,pytorch-native-cu128
mvn -B -q -o -DskipTests -pl coach-node,athlete-node,tool-node,modules/bench -am package dependency:copy-dependencies \
  -DincludeScope=runtime -DexcludeArtifactIds="$EXCLUDED" -DoutputDirectory="$(pwd)/$DIR/lib.deps" > "$DIR/mvn.log" 2>&1 \
  || { tail -30 "$DIR/mvn.log" >&2; echo "make-kit: the build failed (log $DIR/mvn.log)" >&2; exit 3; }
for m in coach-node athlete-node tool-node modules/*; do
  for j in "$m"/target/*-SNAPSHOT.jar; do
    [[ -f "$j" && "$j" != *-tests.jar && "$j" != *-sources.jar ]] && cp "$j" "$DIR/lib/"
  done
done
cp "$DIR"/lib.deps/*.jar "$DIR/lib/"; rm -rf "$DIR/lib.deps" "$DIR/mvn.log"
# only the jars a GPU run loads; a kept one the build no longer makes means the list is stale, and a jar the list does
# not name (a new dependency) is kept, since a run that lacks a class fails there, and named here
LIST=deploy/gpu/kit-jars.txt
BUILT_JARS=$(ls "$DIR/lib" | wc -l)
UNLISTED=()
for j in "$DIR"/lib/*.jar; do
  name="$(basename "$j" | sed 's/-[0-9].*\.jar$//')"
  if grep -qxF -- "-$name" "$LIST"; then rm -f "$j"
  elif ! grep -qxF -- "$name" "$LIST"; then UNLISTED+=("$name"); fi
done
while read -r name; do
  compgen -G "$DIR/lib/$name-[0-9]*.jar" > /dev/null \
    || { echo "make-kit: $LIST keeps $name, which the build no longer has: refresh the list (see the top of this script)" >&2; exit 5; }
done < <(grep -v -e '^#' -e '^-' "$LIST")
(( ${#UNLISTED[@]} == 0 )) || echo "make-kit: kept ${#UNLISTED[@]} jar(s) $LIST does not name: $(printf '%s\n' "${UNLISTED[@]}" | sort -u | tr '\n' ' ')(rehearse and classify them: see the top of this script)" >&2
# DJL's tokenizers jar carries its Rust library for every platform: keep linux-x86_64's
for t in "$DIR"/lib/tokenizers-*.jar; do
  [[ -f "$t" ]] || continue
  tmp="$(mktemp -d)"; (cd "$tmp" && "$JAVA_HOME/bin/jar" xf "$(realpath "$OLDPWD/$t")")
  find "$tmp/native/lib" -mindepth 1 -maxdepth 1 -type d ! -name linux-x86_64 -exec rm -rf {} + 2>/dev/null || true
  rm -f "$t"; "$JAVA_HOME/bin/jar" cf "$t" -C "$tmp" .; rm -rf "$tmp"
done

JARS="$(ls "$DIR/lib" | wc -l) of $BUILT_JARS"
python3 - "$DIR/lib" <<'PY'
import glob, os, sys, zipfile
for jar in glob.glob(os.path.join(sys.argv[1], "*.jar")):
    with zipfile.ZipFile(jar) as zin:
        entries = [(i, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_STORED) as zout:
        for info, data in entries:
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
PY
tar -cf - -C "$DIR" lib | xz -9 -T0 > "$DIR/lib.tar.xz"
# uncompressed modules: xz over them is smaller than jlink's own compression (18 against 29 MiB)
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.sql,java.xml,java.instrument,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.zipfs \
  --strip-debug --no-man-pages --no-header-files --compress=0 --output "$DIR/jre.tmp/jre"
# what the JRE's headless drawing needs and a GPU machine's image may lack (a run's reward_curve.png): the system
# libraries its font and image code links (harfbuzz, freetype, ...) and fontconfig, which it opens by name, beside the
# JRE's own, where their $ORIGIN rpath finds them first (glibc and the C++ runtime stay the machine's), and two fonts
# with a fontconfig file naming only them (gpu-check.sh sets FONTCONFIG_FILE to it)
BASE_LIBS='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so'
JRE_LIB="$DIR/jre.tmp/jre/lib"
# awk reads to the end: an early exit would kill ldconfig by SIGPIPE, and pipefail end this script without a word
FONTCONFIG="$(ldconfig -p | awk '$1 == "libfontconfig.so.1" && /x86-64/ && !found {print $NF; found = 1}')"
[[ -n "$FONTCONFIG" ]] || { echo "make-kit: no libfontconfig.so.1 here (Debian: apt-get install libfontconfig1)" >&2; exit 6; }
cp -L "$FONTCONFIG" "$JRE_LIB/libfontconfig.so.1"
for lib in libfontmanager.so libawt_headless.so liblcms.so libjavajpeg.so libfontconfig.so.1; do
  [[ -f "$JRE_LIB/$lib" ]] || { echo "make-kit: the JRE has no lib/$lib" >&2; exit 6; }
  ldd "$JRE_LIB/$lib" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r soname path; do
  [[ "$soname" =~ $BASE_LIBS || -e "$JRE_LIB/$soname" ]] || cp -L "$path" "$JRE_LIB/$soname"
done
mkdir -p "$JRE_LIB/fonts"
for font in DejaVuSans.ttf DejaVuSans-Bold.ttf; do
  cp /usr/share/fonts/truetype/dejavu/$font "$JRE_LIB/fonts/" \
    || { echo "make-kit: no $font here (Debian: apt-get install fonts-dejavu-core)" >&2; exit 6; }
done
cat > "$JRE_LIB/fonts/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">.</dir>
  <cachedir>/tmp/toolcoach-fontconfig</cachedir>
</fontconfig>
XML
tar -cf - -C "$DIR/jre.tmp" jre | xz -6 -T0 > "$DIR/jre.tar.xz"
rm -rf "$DIR/lib" "$DIR/jre.tmp"
size=$(du -sm "$DIR" | cut -f1)
echo "make-kit: $DIR: $JARS jars ($(du -sh "$DIR/lib.tar.xz" | cut -f1)), JRE $(du -sh "$DIR/jre.tar.xz" | cut -f1); ${size} MiB in all"
(( size <= LIMIT_MIB )) || { echo "make-kit: $DIR is ${size} MiB, over the ${LIMIT_MIB} MiB a GPU run may carry" >&2; exit 4; }
