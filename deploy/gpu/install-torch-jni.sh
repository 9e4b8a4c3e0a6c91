#!/usr/bin/env bash
# Makes ToolCoach run on a PyTorch that is already installed (a pip wheel, or a libtorch folder), with no network:
# builds DJL's JNI library (deploy/gpu/djl-jni, DJL 0.35.1's C++ with ToolCoach's bf16 and cast fixes) against that
# torch, installs it where DJL looks for it, and writes an environment file that points DJL at that torch.
#
#   deploy/gpu/install-torch-jni.sh [--python PY | --torch DIR] [--prefix DIR] [--jobs N] [--jni-include DIR] [--quick]
#                                   [--cache DIR | --no-cache]
#
#   --python PY       the Python whose torch to use (default: python3); torch is found without importing it
#   --torch DIR       a torch folder instead: pip's site-packages/torch, or an unpacked libtorch (lib/ include/ share/)
#   --prefix DIR      where the build, the JNI and the environment file go (default: $TOOLCOACH_HOME/torch, else
#                     ~/.toolcoach/torch)
#   --jobs N          parallel compile jobs (default: the number of CPUs)
#   --jni-include DIR a folder holding jni.h and linux/jni_md.h (default: from the JDK of javac or $JAVA_HOME)
#   --quick           an unoptimised build (-O0): for tests, where the build's time matters more than the JNI's speed
#   --cache DIR       JNIs built before, shared by every prefix on this machine (default: $TOOLCOACH_JNI_CACHE, else
#                     ${XDG_CACHE_HOME:-~/.cache}/toolcoach/djl-jni): one built for the same torch version, C++ ABI,
#                     vendored source, build flags, compiler and --quick is reused instead of built again (the JNI names
#                     torch's libraries, not their folder, so any install of that torch version loads it)
#   --no-cache        build, whatever the cache holds (the result still goes into it)
#
# Then `source PREFIX/torch.env` before any ToolCoach command or node (deploy/local/cluster.sh does it itself when
# TOOLCOACH_TORCH_ENV names the file), and check with `java -jar coach-node/target/coach-node.jar doctor`.
# Needs cmake, a C++17 compiler (g++), and ninja or make. Run again after changing torch: an unchanged one rebuilds
# nothing. Exit codes: 0 installed; 2 bad usage or no torch found; 3 no compiler or JNI headers; 4 the build failed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$HERE/djl-jni/engines/pytorch/pytorch-native"
DJL_VERSION=0.35.1 # the root pom's djl.version (NodeConfigsTest holds them equal): DJL looks for <this>-libdjl_torch.so
# torch's test libraries: DJL loads every .so of PYTORCH_LIBRARY_PATH otherwise
EXCLUDED="libaoti_custom_ops.so,libbackend_with_compiler.so,libjitbackend_test.so,libtorchbind_test.so"

die() { echo "install-torch-jni: $1" >&2; exit "${2:-2}"; }
say() { echo "install-torch-jni: $*" >&2; }

PYTHON=python3 TORCH="" PREFIX="${TOOLCOACH_HOME:-$HOME/.toolcoach}/torch" JOBS="$(nproc)" JNI_INCLUDE="" QUICK=0 REUSE=1
JNI_CACHE="${TOOLCOACH_JNI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolcoach/djl-jni}"
while (( $# )); do
  case "$1" in
    --python) PYTHON="${2:?--python needs a program}"; shift 2 ;;
    --torch) TORCH="${2:?--torch needs a folder}"; shift 2 ;;
    --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
    --jobs) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number, got '${2:-}'"; JOBS="$2"; shift 2 ;;
    --jni-include) JNI_INCLUDE="${2:?--jni-include needs a folder}"; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --cache) JNI_CACHE="${2:?--cache needs a folder}"; shift 2 ;;
    --no-cache) REUSE=0; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

# --- the torch: its folder, version, flavour and C++ ABI, read from its files (importing it needs its dependencies)
if [[ -z "$TORCH" ]]; then
  command -v "$PYTHON" > /dev/null || die "no Python '$PYTHON' (give --python PY or --torch DIR)"
  TORCH="$("$PYTHON" -c 'import importlib.util as u; s = u.find_spec("torch"); print(s.submodule_search_locations[0] if s else "")')" \
    || die "'$PYTHON' cannot look for torch"
  [[ -n "$TORCH" ]] || die "'$PYTHON' has no torch installed (pip install torch, or give --torch DIR)"
fi
[[ -d "$TORCH" ]] || die "--torch: no folder '$TORCH'"
TORCH="$(cd "$TORCH" && pwd)"
[[ -f "$TORCH/lib/libtorch.so" ]] || die "$TORCH is not a torch folder: no lib/libtorch.so"
[[ -d "$TORCH/include/torch" ]] || die "$TORCH has no C++ headers (include/torch): a pip wheel or libtorch has them"
if [[ -f "$TORCH/version.py" ]]; then # pip: __version__ = '2.11.0+cu130', cuda = '13.0'
  FULL="$(sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$TORCH/version.py")"
  CUDA="$(sed -n "s/^cuda[^=]*= '\([0-9.]*\)'.*/\1/p" "$TORCH/version.py")"
elif [[ -f "$TORCH/build-version" ]]; then # libtorch: 2.7.1+cu128
  FULL="$(head -1 "$TORCH/build-version")"; CUDA=""
else
  die "$TORCH has neither version.py (pip) nor build-version (libtorch): cannot tell its version"
fi
VERSION="${FULL%%+*}"
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot read torch's version from '$FULL'"
if [[ "$FULL" == *+cu* ]]; then FLAVOR="${FULL##*+}"
elif [[ -n "$CUDA" ]]; then FLAVOR="cu${CUDA//./}"
elif [[ -f "$TORCH/lib/libtorch_cuda.so" ]]; then die "$TORCH has CUDA libraries but no CUDA version in $FULL"
else FLAVOR=cpu; fi
# torch's CMake config names the ABI where it is not the new one (pip wheels from 2.7 on have only the new)
ABI="$(grep -rhoE '_GLIBCXX_USE_CXX11_ABI=[01]' "$TORCH/share/cmake" 2>/dev/null | head -1 | cut -d= -f2 || true)"
ABI="${ABI:-1}"
SITE="$(dirname "$TORCH")" # pip's CUDA libraries and headers live beside torch, in site-packages/nvidia/*
NVIDIA_LIBS="$(ls -d "$SITE"/nvidia/*/lib 2>/dev/null | tr '\n' ':' || true)"; NVIDIA_LIBS="${NVIDIA_LIBS%:}"
NVIDIA_INCS="$(ls -d "$SITE"/nvidia/*/include 2>/dev/null | tr '\n' ';' || true)"
[[ -d /usr/local/cuda/include ]] && NVIDIA_INCS="${NVIDIA_INCS}/usr/local/cuda/include"
NVIDIA_INCS="${NVIDIA_INCS%;}"
say "torch $FULL ($FLAVOR, C++11 ABI $ABI) at $TORCH"

# --- tools and JNI headers
command -v cmake > /dev/null || die "cmake is not installed (Debian: apt-get install cmake)" 3
command -v g++ > /dev/null || command -v c++ > /dev/null || die "no C++ compiler (Debian: apt-get install g++)" 3
GEN="Unix Makefiles"; command -v ninja > /dev/null && GEN=Ninja
if [[ -z "$JNI_INCLUDE" ]]; then
  JH="${JAVA_HOME:-}"
  [[ -z "$JH" ]] && command -v javac > /dev/null && JH="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  JNI_INCLUDE="${JH:+$JH/include}"
fi
[[ -n "$JNI_INCLUDE" && -f "$JNI_INCLUDE/jni.h" && -f "$JNI_INCLUDE/linux/jni_md.h" ]] \
  || die "no JNI headers (jni.h, linux/jni_md.h): install a JDK, set JAVA_HOME, or give --jni-include DIR" 3

# --- build (incremental: the same torch and prefix rebuild nothing)
mkdir -p "$PREFIX"; PREFIX="$(cd "$PREFIX" && pwd)"
CACHE="$PREFIX/cache"
JNI_DIR="$CACHE/pytorch/$VERSION-$FLAVOR-linux-x86_64"
JNI="$JNI_DIR/$DJL_VERSION-libdjl_torch.so" # where DJL 0.35.1's LibUtils looks, under ENGINE_CACHE_DIR
LOG="$PREFIX/build.log"
: > "$LOG"
OPT=(-DCMAKE_BUILD_TYPE=Release)
(( QUICK )) && OPT=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0)
build() { # build MODE(config|manual) USE_CUDA EXTRA_FLAGS -> 0, or 1 after a failure (details in the log)
  local mode="$1" cuda="$2" extra="$3"
  local dir="$PREFIX/build/$FULL-$mode-cuda$cuda${extra:+-permissive}$( (( QUICK )) && echo -quick)"
  local flags="-D_GLIBCXX_USE_CXX11_ABI=$ABI $extra" inc
  local args=(-G "$GEN" -S "$SRC" -B "$dir" "${OPT[@]}" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DDJL_PCH=ON
    "-DJNI_INCLUDE_DIRS=$JNI_INCLUDE;$JNI_INCLUDE/linux" "-DUSE_CUDA=$cuda")
  if [[ "$mode" == config ]]; then
    # pip's CUDA headers after the toolkit's (a toolkit of nvcc alone lacks cublas_v2.h)
    for inc in ${NVIDIA_INCS//;/ }; do flags+=" -isystem $inc"; done
    args+=("-DCMAKE_PREFIX_PATH=$TORCH/share/cmake")
  else
    args+=(-DDJL_TORCH_MANUAL=ON "-DTORCH_ROOT=$TORCH" "-DTORCH_EXTRA_INCLUDES=$NVIDIA_INCS")
  fi
  args+=("-DCMAKE_CXX_FLAGS=$flags")
  echo "== cmake ${args[*]}" >> "$LOG"
  cmake "${args[@]}" >> "$LOG" 2>&1 || return 1
  cmake --build "$dir" -j "$JOBS" >> "$LOG" 2>&1 || return 1
  BUILT="$dir/libdjl_torch.so"
}
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
[[ -x "$CUDA_HOME/bin/nvcc" ]] && export PATH="$CUDA_HOME/bin:$PATH" CUDACXX="$CUDA_HOME/bin/nvcc"
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" # no .cu sources: only keeps torch's config from probing a GPU
# with torch's own CMake config first (as DJL builds it), then against its folders (that config's CUDA part needs a
# matching toolkit); USE_CUDA adds only DJL's cache-emptying and stream code, so CUDA works without it
attempts=("config 0 -" "manual 0 -" "manual 0 -fpermissive")
[[ "$FLAVOR" == cu* ]] && attempts=("config 1 -" "manual 1 -" "manual 0 -" "manual 0 -fpermissive")
BUILT=""
T0=$SECONDS
# the cache's key: everything the library's bytes depend on but torch's folder (the JNI links torch's libraries by name)
SOURCE_SUM="$(cd "$HERE/djl-jni" && find engines api -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
KEY="$FULL-$( { printf '%s\n' "$SOURCE_SUM" "$ABI" "${OPT[*]}" "${attempts[*]}" "$TORCH_CUDA_ARCH_LIST"
  "${CXX:-g++}" --version 2>/dev/null | head -1; declare -f build; } | sha256sum | cut -c1-16)"
CACHED="$JNI_CACHE/$KEY/libdjl_torch.so"
if (( REUSE )) && [[ -f "$CACHED" ]]; then
  BUILT="$CACHED"
  say "reusing the JNI built before for this torch, source and flags: $CACHED (--no-cache builds it again)"
else
  for a in "${attempts[@]}"; do
    read -r mode cuda extra <<< "$a"; [[ "$extra" == - ]] && extra=""
    say "building DJL $DJL_VERSION's JNI ($mode, USE_CUDA=$cuda${extra:+, $extra}, -j$JOBS$( (( QUICK )) && echo ', -O0'))"
    if build "$mode" "$cuda" "$extra"; then break; fi
    say "that build failed; first errors:"
    grep -E ': (fatal )?error:|undefined reference|CMake Error|FAILED:' "$LOG" | tail -n 8 | sed 's/^/    /' >&2 || true
  done
  [[ -n "$BUILT" && -f "$BUILT" ]] || die "every build attempt failed (log: $LOG)" 4
fi
mkdir -p "$JNI_DIR"
cp "$BUILT" "$JNI.tmp" && mv "$JNI.tmp" "$JNI"
NATIVES="$(grep -c JNIEXPORT "$SRC/build/include/ai_djl_pytorch_jni_PyTorchLibrary.h")"
EXPORTED="$(nm -D --defined-only "$JNI" | grep -c ' Java_ai_djl_pytorch_jni_PyTorchLibrary_' || true)"
LDP="$TORCH/lib${NVIDIA_LIBS:+:$NVIDIA_LIBS}"
UNRESOLVED="$(LD_LIBRARY_PATH="$LDP${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd -r "$JNI" 2>&1 | grep -cE 'undefined symbol|not found' || true)"
FROM="log: $LOG"; [[ "$BUILT" == "$CACHED" ]] && FROM="reused from $CACHED; --no-cache builds it again"
(( EXPORTED >= NATIVES )) || die "the JNI exports $EXPORTED of DJL's $NATIVES natives ($FROM)" 4
(( UNRESOLVED == 0 )) || die "the JNI has $UNRESOLVED unresolved symbols or libraries against $TORCH/lib (ldd -r $JNI; $FROM)" 4
cat > "$JNI.toolcoach.properties" <<EOF
# ToolCoach's build of DJL's JNI (deploy/gpu/djl-jni): what it can do beyond DJL $DJL_VERSION's own
features=bf16,cast-gradient
djl.version=$DJL_VERSION
torch=$FULL
torch.dir=$TORCH
source.sha256=$SOURCE_SUM
EOF
if [[ "$BUILT" != "$CACHED" ]]; then # checked: keep it for the next prefix, renamed into place whole
  mkdir -p "$JNI_CACHE/$KEY" && cp "$JNI" "$CACHED.$$" && mv "$CACHED.$$" "$CACHED" \
    || say "warning: could not keep the JNI in the cache $JNI_CACHE"
fi
say "$([[ "$BUILT" == "$CACHED" ]] && echo "reused" || echo "built") in $((SECONDS - T0)) s: $JNI ($EXPORTED of $NATIVES natives, nothing unresolved)"

# --- CUDA: DJL counts GPUs through JNA's libcudart.so; give it the cudart torch itself links, under that name
CUDART_DIR=""
if [[ "$FLAVOR" == cu* ]]; then
  CUDART="$(LD_LIBRARY_PATH="$LDP" ldd "$TORCH/lib/libtorch_cuda.so" 2>/dev/null | awk '/libcudart/ {print $3; exit}')"
  [[ -z "$CUDART" || "$CUDART" == "not" ]] && CUDART="$(ls "$SITE"/nvidia/*/lib/libcudart.so.* 2>/dev/null | head -1 || true)"
  if [[ -n "$CUDART" ]]; then
    CUDART_DIR="$PREFIX/cudart"; mkdir -p "$CUDART_DIR"; ln -sf "$CUDART" "$CUDART_DIR/libcudart.so"
  else
    say "warning: no libcudart found for $TORCH/lib/libtorch_cuda.so: DJL will count no GPU"
  fi
fi

ENV_FILE="$PREFIX/torch.env"
{
  echo "# ToolCoach on torch $FULL ($FLAVOR) at $TORCH; written by deploy/gpu/install-torch-jni.sh on $(date -u +%F)."
  echo "# source this file before any ToolCoach command or node (DJL reads these when its engine loads)."
  printf 'export PYTORCH_LIBRARY_PATH=%q\n' "$TORCH/lib"
  printf 'export PYTORCH_VERSION=%q PYTORCH_FLAVOR=%q\n' "$VERSION" "$FLAVOR"
  printf 'export ENGINE_CACHE_DIR=%q\n' "$CACHE"
  printf 'export PYTORCH_LIBRARY_EXCLUSION=%q\n' "$EXCLUDED"
  printf 'export TOOLCOACH_TORCH_ENV=%q\n' "$ENV_FILE"
  if [[ -n "$CUDART_DIR" ]]; then
    printf 'export TOOLCOACH_CUDART_DIR=%q\n' "$CUDART_DIR"
    printf 'export LD_LIBRARY_PATH=%q"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"\n' "$CUDART_DIR${NVIDIA_LIBS:+:$NVIDIA_LIBS}"
  fi
  echo "export DJL_OFFLINE=true OPT_OUT_TRACKING=true"
} > "$ENV_FILE"
say "environment: $ENV_FILE"
echo "$ENV_FILE"
