#!/usr/bin/env bash
# Every GPU check of issue 26 in one run, on a CUDA machine with a pip PyTorch and no Java, network or DJL natives, from
# a copy of the repository with the kit of deploy/gpu/make-kit.sh beside it (.gpukit). Each step runs under its own cap
# and the global deadline; a step that cannot finish by then is skipped. Logs and a summary go to $OUT.
#
#   OUT=/some/dir bash deploy/gpu/gpu-check.sh
#
#   1 env      nvidia-smi, torch, compilers; a GPU sampler (1 s) for peak memory and utilisation per step
#   2 jni      deploy/gpu/install-torch-jni.sh against that torch (DJL's JNI from deploy/gpu/djl-jni), torch.env
#   3 doctor   coach-node doctor: auto (bf16 on a GPU with this JNI), then f16
#   4 grpo05   the Qwen2.5-0.5B shape (random, bf16 folder): LoRA GRPO step 8 x 512, micro-batches 1/4/8, base f32
#              and bf16; beside it transformers + peft eager (hf_anchor.py) in f32 and bf16, greedy decode there too
#   5 decode   ToolCoach greedy decode at batch 1/8/64 on the 0.5B shape (f32 and bf16)
#   6 train    coach-node train --task finance --device cuda: the main job, embedded, its wall time
#   7 serve    coach-node serve --device cuda on train's model, one chat completion
#   8 cluster  a coach node (learner on the GPU), an athlete node (engine on the GPU) and a tool node: a short job
#   9 grpo15   the 1.5B shape: the same step (micro 1/4, f32 and bf16) and its anchor
#  10 grpo7    the 7B shape: one bf16 step's time, peak GPU memory from the sampler (write is slow: last)
#
# Knobs: GPUCHECK_KIT (.gpukit), GPUCHECK_WORK (/tmp/gpucheck), GPUCHECK_DEADLINE_S (480), GPUCHECK_DEVICE (cuda; cpu for
# a rehearsal on a machine without a GPU), GPUCHECK_STEPS (the steps to run, comma-separated; default all of the above),
# GPUCHECK_SMALL (1: tiny shapes and sizes, for the CPU rehearsal), GPUCHECK_JOBS (compile jobs, default nproc),
# TORCH_PY (the Python with torch; default /opt/torch/.venv/bin/python3 if there, else python3), GPUCHECK_JNI_QUICK (1:
# an unoptimised JNI build), GPUCHECK_TRAIN_CAP (seconds for train, default 200).
set -uo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KIT="$(cd "${GPUCHECK_KIT:-$REPO/.gpukit}" 2>/dev/null && pwd)" || { echo "gpu-check: no kit at ${GPUCHECK_KIT:-$REPO/.gpukit} (deploy/gpu/make-kit.sh)" >&2; exit 2; }
OUT="${OUT:-/tmp/gpucheck-out}"
WORK="${GPUCHECK_WORK:-/tmp/gpucheck}"
DEADLINE_S="${GPUCHECK_DEADLINE_S:-480}"
DEVICE="${GPUCHECK_DEVICE:-cuda}"
SMALL="${GPUCHECK_SMALL:-0}"
STEPS=",${GPUCHECK_STEPS:-jni,doctor,grpo05,decode,train,serve,cluster,grpo15,grpo7},"
JOBS="${GPUCHECK_JOBS:-$(nproc)}"
TRAIN_CAP="${GPUCHECK_TRAIN_CAP:-200}"
mkdir -p "$OUT" "$WORK"
SUMMARY="$OUT/00-summary.log"; : > "$SUMMARY"
SMILOG="$OUT/01-nvidia-smi.csv"
T_START=$(date +%s)
FAILS=0
SMI_PID=""
NODE_PIDS=()
cleanup() {
  local p
  for p in "${NODE_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  [[ -n "$SMI_PID" ]] && kill "$SMI_PID" 2>/dev/null
  return 0
}
trap cleanup EXIT

say() { echo "[gpu-check +$(( $(date +%s) - T_START ))s] $*" | tee -a "$SUMMARY"; }
left() { echo $(( DEADLINE_S - ($(date +%s) - T_START) )); }
wanted() { [[ "$STEPS" == *",$1,"* ]]; }

# step NAME LOG CAP cmd...: cmd (output appended to LOG) under timeout min(CAP, time left) (a shell function gets it as
# STEP_T and keeps to it itself); prints status, wall time and
# the GPU's peak memory and utilisation meanwhile; returns cmd's rc (124 timed out, 125 skipped for lack of time)
step() {
  local name="$1" log="$2" cap="$3"; shift 3
  local remain; remain=$(left)
  if (( remain < 15 )); then say "SKIP  $name (${remain}s left of ${DEADLINE_S}s)"; return 125; fi
  local t=$(( cap < remain ? cap : remain )) n0=0 s0; s0=$(date +%s%N)
  [[ -f "$SMILOG" ]] && n0=$(wc -l < "$SMILOG")
  printf '\n===== %s (cap %ss): %s\n' "$name" "$t" "$*" >> "$log"
  if declare -F "$1" > /dev/null; then STEP_T="$t" "$@" >> "$log" 2>&1; else timeout --kill-after=10 "$t" "$@" >> "$log" 2>&1; fi
  local rc=$? gpu="" wall
  wall=$(awk -v a="$s0" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
  [[ -s "$SMILOG" ]] && gpu=$(tail -n +"$((n0 + 1))" "$SMILOG" | awk -F', *' '{u=$2+0; m=$3+0; if (u>mu) mu=u; if (m>mm) mm=m} END {if (NR) printf "; GPU peak %d MiB, util %d%%", mm, mu}')
  echo "----- $name: rc=$rc wall=${wall}s$gpu" >> "$log"
  if (( rc == 0 )); then say "OK    $name  ${wall}s$gpu"; else say "FAIL  $name  rc=$rc ${wall}s$gpu (log $(basename "$log"))"; FAILS=$((FAILS + 1)); fi
  return $rc
}
figures() { # LOG PATTERN: the log's result lines into the summary
  grep -hE "$2" "$1" 2>/dev/null | sed 's/^/    /' | tee -a "$SUMMARY"
}

# ---------------------------------------------------------------- 1 env
ENVLOG="$OUT/02-env.log"
TORCH_PY="${TORCH_PY:-/opt/torch/.venv/bin/python3}"; [[ -x "$TORCH_PY" ]] || TORCH_PY="$(command -v python3)"
{
  nvidia-smi -L; nvidia-smi | head -20
  echo "cpus $(nproc)"; free -g; df -h "$WORK" | tail -1
  for c in g++ cmake ninja make nvcc curl; do printf '%-6s %s\n' "$c" "$(command -v $c || echo -)"; done
  "$TORCH_PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")'
  "$TORCH_PY" -c 'import transformers, peft; print("transformers", transformers.__version__, "peft", peft.__version__)'
} > "$ENVLOG" 2>&1
say "repo $REPO, kit $KIT, out $OUT, device $DEVICE, deadline ${DEADLINE_S}s, steps ${STEPS//,/ }"
grep -E "^(GPU |torch |transformers )" "$ENVLOG" | sed 's/^/    /' | tee -a "$SUMMARY"
if [[ "$DEVICE" != cpu ]] && command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits -lms 1000 > "$SMILOG" 2>&1 &
  SMI_PID=$!
fi

# ---------------------------------------------------------------- 2 jni
JNILOG="$OUT/03-jni.log"
ENV_FILE="$WORK/torch/torch.env"
QUICK=(); [[ "${GPUCHECK_JNI_QUICK:-0}" == 1 ]] && QUICK=(--quick)
if wanted jni || [[ ! -f "$ENV_FILE" ]]; then
  step "jni (install-torch-jni.sh, -j$JOBS)" "$JNILOG" 300 bash "$REPO/deploy/gpu/install-torch-jni.sh" --python "$TORCH_PY" \
    --prefix "$WORK/torch" --jobs "$JOBS" --jni-include "$KIT/jni-include" "${QUICK[@]}"
  figures "$JNILOG" "install-torch-jni: (torch|built in)"
  cp "$WORK/torch/build.log" "$OUT/03-jni-build.log" 2>/dev/null
fi
[[ -f "$ENV_FILE" ]] || { say "STOP: no torch.env, nothing can run on the JVM"; exit 3; }
# shellcheck disable=SC1090
source "$ENV_FILE"

JRE="$WORK/jre"
[[ -x "$JRE/bin/java" ]] || { mkdir -p "$WORK" && tar -xJf "$KIT/jre.tar.xz" -C "$WORK" 2>/dev/null \
  || "$TORCH_PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$KIT/jre.tar.xz" "$WORK"; }
[[ -d "$WORK/lib" ]] || tar -xJf "$KIT/lib.tar.xz" -C "$WORK" 2>/dev/null \
  || "$TORCH_PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$KIT/lib.tar.xz" "$WORK"
export PATH="$JRE/bin:$PATH"
CP="$WORK/lib/*"
JAVA=(java -XX:+UseParallelGC -DDJL_OFFLINE=true -DOPT_OUT_TRACKING=true -cp "$CP")
COACH=("${JAVA[@]}" -Xmx6g dev.toolcoach.coachnode.CoachNodeMain)
QB=("${JAVA[@]}" -Xmx4g dev.toolcoach.bench.model.QwenShapeBench)
say "java: $(java -version 2>&1 | head -1)"

# ---------------------------------------------------------------- 3 doctor
if wanted doctor; then
  DOCLOG="$OUT/04-doctor.log"
  step "doctor --device $DEVICE (auto precision)" "$DOCLOG" 90 "${COACH[@]}" doctor --device "$DEVICE"
  step "doctor --device $DEVICE --precision f16" "$DOCLOG" 90 "${COACH[@]}" doctor --device "$DEVICE" --precision f16
  figures "$DOCLOG" "^(engine|jni|devices|device|matmul|bf16 base|f16 base|verdict)"
fi

# ---------------------------------------------------------------- shapes, the anchor
if (( SMALL )); then SHAPE05=tiny; ROWS=2; TOKENS=96; MICROS=1,2; DECODE=1,4; NEW=8; else SHAPE05=0.5b; ROWS=8; TOKENS=512; MICROS=1,4,8; DECODE=1,8,64; NEW=32; fi
BENCHLOG="$OUT/05-bench.log"
HFLOG="$OUT/06-hf-anchor.log"
HAVE_HF=0; grep -q "^transformers " "$ENVLOG" && HAVE_HF=1
shape() { # shape SIZE DIR: writes the random model folder once
  [[ -f "$2/model.safetensors" ]] && return 0
  step "write $1 shape" "$BENCHLOG" 240 "${QB[@]}" write "$2" "$1"
}
grpo() { # grpo SIZE DIR MICROS PRECISIONS
  local p
  for p in ${4//,/ }; do
    step "$1 grpo $ROWS x $TOKENS, micro $3, base $p" "$BENCHLOG" 240 "${QB[@]}" grpo "$2" "$ROWS" "$TOKENS" "$3" "$p" 2
  done
}
anchor() { # anchor DIR MICROS DECODES
  (( HAVE_HF )) || { say "SKIP  hf anchor (no transformers/peft in $TORCH_PY)"; return 0; }
  step "hf anchor $(basename "$1") (transformers + peft eager, f32 and bf16)" "$HFLOG" 300 "$TORCH_PY" "$REPO/deploy/gpu/hf_anchor.py" "$1" \
    --rows "$ROWS" --tokens "$TOKENS" --micro "$2" --decode "$3" --new "$NEW" --device "$([[ $DEVICE == cpu ]] && echo cpu || echo cuda)"
}
Q05="$WORK/qwen-$SHAPE05"
if wanted grpo05; then
  shape "$SHAPE05" "$Q05" && { grpo "$SHAPE05" "$Q05" "$MICROS" f32,bf16; anchor "$Q05" "$MICROS" "$DECODE"; }
fi
if wanted decode && [[ -f "$Q05/model.safetensors" ]]; then
  for p in f32 bf16; do step "$SHAPE05 greedy decode batch $DECODE, base $p" "$BENCHLOG" 180 "${QB[@]}" generate "$Q05" "$NEW" "$DECODE" "$p"; done
fi

# ---------------------------------------------------------------- 6 train, 7 serve
RUNS="$WORK/runs"
TRAINLOG="$OUT/07-train.log"
TRAIN_ARGS=(--task finance); (( SMALL )) && TRAIN_ARGS=(--task arithmetic --steps 2 --warmup-traces 240)
if wanted train; then
  rm -rf "$RUNS/gpu-train"
  step "train ${TRAIN_ARGS[*]} --device $DEVICE (the main job)" "$TRAINLOG" "$TRAIN_CAP" "${COACH[@]}" train "${TRAIN_ARGS[@]}" \
    --device "$DEVICE" --runs "$RUNS" --name gpu-train
  grep -E "^(evaluation|before_training|after_warmup|after_grpo|groups trained)" "$TRAINLOG" | sed 's/^/    /' | tee -a "$SUMMARY"
fi
if wanted serve; then
  SERVELOG="$OUT/08-serve.log"
  MODEL="$RUNS/gpu-train/distilled"; [[ -f "$MODEL/config.json" ]] || MODEL="$RUNS/gpu-train/init"
  if [[ -f "$MODEL/config.json" ]]; then
    ADAPTER=(); [[ -f "$RUNS/gpu-train/adapter/adapter_config.json" ]] && ADAPTER=(--adapter "$RUNS/gpu-train/adapter")
    serve_once() {
      local port=18765 pid rc=1
      "${COACH[@]}" serve --model "$MODEL" "${ADAPTER[@]}" --device "$DEVICE" --port $port &
      pid=$!; NODE_PIDS+=("$pid")
      "$TORCH_PY" "$REPO/deploy/gpu/gpu_cluster.py" serve-request --port $port --timeout $(( STEP_T - 15 )) && rc=0
      kill "$pid"; wait "$pid" 2>/dev/null
      return $rc
    }
    step "serve --device $DEVICE, one chat completion" "$SERVELOG" 150 serve_once
    figures "$SERVELOG" "^serve-request"
  else
    say "SKIP  serve (train left no model in $RUNS/gpu-train)"
  fi
fi

# ---------------------------------------------------------------- 8 cluster
if wanted cluster; then
  CLUSTERLOG="$OUT/09-cluster.log"
  # the warm-up holds 100 traces out: 240 leave 140 to learn from
  JOB_ARGS='{"task": "finance", "steps": 3, "warmup_traces": 240, "name": "gpu-cluster"}'
  (( SMALL )) && JOB_ARGS='{"task": "arithmetic", "steps": 1, "warmup_traces": 240, "name": "gpu-cluster"}'
  rm -rf "$WORK/cluster-runs"
  step "cluster: coach + athlete on $DEVICE, tool node, a short job" "$CLUSTERLOG" 240 "$TORCH_PY" "$REPO/deploy/gpu/gpu_cluster.py" cluster \
    --java "$JRE/bin/java" --classpath "$CP" --device "$DEVICE" --runs "$WORK/cluster-runs" --logs "$OUT" --job "$JOB_ARGS" --timeout 220
  figures "$CLUSTERLOG" "^cluster:"
fi

# ---------------------------------------------------------------- 9 1.5B, 10 7B
if wanted grpo15; then
  S15=1.5b; (( SMALL )) && S15=tiny
  Q15="$WORK/qwen-$S15-b"
  shape "$S15" "$Q15" && { grpo "$S15" "$Q15" "${MICROS%,*}" f32,bf16; anchor "$Q15" "${MICROS%,*}" ""; }
fi
if wanted grpo7 && (( ! SMALL )); then
  Q7="$WORK/qwen-7b"
  shape 7b "$Q7" && grpo 7b "$Q7" 1 bf16
fi

say "done in $(( $(date +%s) - T_START ))s, $FAILS step(s) failed"
echo "===== figures" | tee -a "$SUMMARY"
figures "$BENCHLOG" "^(load:|greedy batch|GRPO step|wrote)"
figures "$HFLOG" "^hf "
(( FAILS == 0 ))
