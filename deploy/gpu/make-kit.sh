#!/usr/bin/env bash
# Assembles what deploy/gpu/gpu-check.sh needs beside the repository on a CUDA machine that has a pip PyTorch but no
# Java, no network and no DJL natives, into DIR (default .gpukit, ignored by git), at most 64 MiB:
#   jre.tar.xz      a jlink'd Java 17 runtime (the modules the nodes use)
#   lib/            the project's jars (coach, athlete and tool nodes, bench) and their runtime dependencies, without
#                   DJL's PyTorch natives and JNI (the JNI is built there against the machine's torch) and with the
#                   tokenizers jar cut to its linux-x86_64 library
#   jni-include/    jni.h and jni_md.h of this JDK (the JNI build there has no JDK)
# Run from the repository root; it builds the jars first (mvn -o package, tests skipped; -Pcuda is not needed).
#   deploy/gpu/make-kit.sh [DIR]
set -euo pipefail
DIR="${1:-.gpukit}"
[[ -f pom.xml && -d deploy/gpu ]] || { echo "make-kit: run from the repository root" >&2; exit 2; }
JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
LIMIT_MIB=64
rm -rf "$DIR"; mkdir -p "$DIR/lib" "$DIR/jni-include/linux"
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
rm -f "$DIR"/lib/toolcoach-deploy-*.jar "$DIR"/lib/toolcoach-testkit-*.jar "$DIR"/lib/toolcoach-examples-*.jar
# test-only or build-only artifacts a GPU run never loads
rm -f "$DIR"/lib/jmh-*.jar "$DIR"/lib/jqwik-*.jar "$DIR"/lib/junit-*.jar "$DIR"/lib/selenium-*.jar "$DIR"/lib/opentest4j-*.jar
# DJL's tokenizers jar carries its Rust library for every platform: keep linux-x86_64's
for t in "$DIR"/lib/tokenizers-*.jar; do
  [[ -f "$t" ]] || continue
  tmp="$(mktemp -d)"; (cd "$tmp" && "$JAVA_HOME/bin/jar" xf "$(realpath "$OLDPWD/$t")")
  find "$tmp/native/lib" -mindepth 1 -maxdepth 1 -type d ! -name linux-x86_64 -exec rm -rf {} + 2>/dev/null || true
  rm -f "$t"; "$JAVA_HOME/bin/jar" cf "$t" -C "$tmp" .; rm -rf "$tmp"
done

"$JAVA_HOME/bin/jlink" --add-modules java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.sql,java.xml,jdk.crypto.ec,jdk.unsupported,jdk.zipfs \
  --strip-debug --no-man-pages --no-header-files --compress=2 --output "$DIR/jre.tmp/jre"
tar -cJf "$DIR/jre.tar.xz" -C "$DIR/jre.tmp" jre; rm -rf "$DIR/jre.tmp"
size=$(du -sm "$DIR" | cut -f1)
echo "make-kit: $DIR: $(ls "$DIR/lib" | wc -l) jars, $(du -sh "$DIR/lib" | cut -f1) of jars, JRE $(du -sh "$DIR/jre.tar.xz" | cut -f1); ${size} MiB in all"
(( size <= LIMIT_MIB )) || { echo "make-kit: $DIR is ${size} MiB, over the ${LIMIT_MIB} MiB a GPU run may carry" >&2; exit 4; }
