#!/usr/bin/env bash
# Every GPU check of issues 25 and 26 in one run, on a CUDA machine with a pip PyTorch and no Java, network or DJL
# natives, from a copy of the repository with the kit of deploy/gpu/make-kit.sh beside it (.gpukit). Each step runs
# under its own cap and the global deadline; a step that cannot start by then is skipped. Logs go to $OUT, and
# $OUT/00-summary.log ends with every figure, each named by its step.
#
#   OUT=/some/dir bash deploy/gpu/gpu-check.sh
#
#   env      nvidia-smi, torch, transformers, whether vLLM imports (its version), compilers, the Python helpers compiled;
#            a GPU sampler (1 s) for peak memory and use
#   (writer) the random model folders, written in the background from the start (task shape, 0.5B, 1.5B, then 7B)
#   jni      deploy/gpu/install-torch-jni.sh against that torch (DJL's JNI from deploy/gpu/djl-jni), torch.env
#   doctor   coach-node doctor on the device, auto precision (bf16 on a GPU with this JNI)
#   engine   the main job's model shape (qwen2, dim 128, 4 layers, 1,283 tokens): greedy decode at batch 1/8/64 through
#            the inference engine (QwenShapeBench generate, f32 and bf16 base), the engine alone with sequences joining
#            and leaving (EngineBench decode), and transformers eager's greedy decode on the same folder (hf_anchor.py)
#   decode   the Qwen2.5-0.5B shape: the same greedy decode (f32 and bf16), transformers eager's beside it
#   grpo05   the 0.5B shape: LoRA GRPO step 8 x 512, micro-batches 1/4/8, base f32 and bf16; transformers + peft beside it
#   train    coach-node train --task finance --device cuda: the main job (the README's), embedded; its wall time
#   serve    coach-node serve --device cuda on train's model, one chat completion
#   cluster  a coach node (learner on the GPU), an athlete node (engine on the GPU) and a tool node: a short finance job
#   usermodel train --model, a user's checkpoint: the 0.5B-shape folder (loaded, evaluated, rolled out; a random model
#            earns no reward, so it takes no learner step: grpo05 times that step), then the README's own-model flow on
#            the task model: the warm-up alone (--steps 0) and LoRA GRPO over its distilled/ folder as the user's model
#   clustermodel POST /jobs with a user's model: the warm-up's folder (usermodel's, or made here by the warm-up alone)
#            as "model" in the coach's models folder, LoRA GRPO on the cluster (coach, athlete on the GPU, tool node)
#   grpo15   the 1.5B shape: the step (micro 1/4, f32 and bf16) and its anchor
#   grpo7    the 7B shape: one bf16 step's time, peak GPU memory from the sampler
#   doctor16 coach-node doctor with an f16 base
#
# Knobs: GPUCHECK_KIT (.gpukit), GPUCHECK_WORK (/tmp/gpucheck), GPUCHECK_DEADLINE_S (480), GPUCHECK_DEVICE (cuda; cpu for
# a rehearsal on a machine without a GPU), GPUCHECK_STEPS (the steps to run, comma-separated; default all of the above),
# GPUCHECK_SMALL (1: tiny shapes and a small recipe, for the CPU rehearsal), GPUCHECK_JOBS (compile jobs, default nproc),
# TORCH_PY (the Python with torch; default /opt/torch/.venv/bin/python3 if there, else python3), GPUCHECK_JNI_QUICK (1:
# an unoptimised JNI build), GPUCHECK_TRAIN_CAP (seconds for train, default 180: the main job's target is 3 minutes),
# GPUCHECK_CAP_SCALE (every step's cap times this, for a slow rehearsal machine; default 1), GPUCHECK_CLASSLOG (1: every JVM logs the classes it loads; $OUT/jars-loaded.txt then lists the jars they came from,
# what deploy/gpu/kit-jars.txt holds for make-kit.sh: refresh it from a rehearsal after changing dependencies).
set -uo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KIT="$(cd "${GPUCHECK_KIT:-$REPO/.gpukit}" 2>/dev/null && pwd)" || { echo "gpu-check: no kit at ${GPUCHECK_KIT:-$REPO/.gpukit} (deploy/gpu/make-kit.sh)" >&2; exit 2; }
OUT="${OUT:-/tmp/gpucheck-out}"
WORK="${GPUCHECK_WORK:-/tmp/gpucheck}"
DEADLINE_S="${GPUCHECK_DEADLINE_S:-480}"
DEVICE="${GPUCHECK_DEVICE:-cuda}"
SMALL="${GPUCHECK_SMALL:-0}"
STEPS=",${GPUCHECK_STEPS:-jni,doctor,engine,decode,grpo05,train,serve,cluster,usermodel,clustermodel,grpo15,grpo7,doctor16},"
JOBS="${GPUCHECK_JOBS:-$(nproc)}"
TRAIN_CAP="${GPUCHECK_TRAIN_CAP:-180}"
CAP_SCALE="${GPUCHECK_CAP_SCALE:-1}"
mkdir -p "$OUT" "$WORK"
SUMMARY="$OUT/00-summary.log"; : > "$SUMMARY"
FIGURES="$WORK/figures"; : > "$FIGURES"
SMILOG="$OUT/01-nvidia-smi.csv"
T_START=$(date +%s)
FAILS=0
SMI_PID=""
WRITER_PID=""
rm -f "$WORK/writer.pid"
cleanup() {
  [[ -n "$WRITER_PID" ]] && kill "$WRITER_PID" $(cat "$WORK/writer.pid" 2>/dev/null) 2>/dev/null
  [[ -n "$SMI_PID" ]] && kill "$SMI_PID" 2>/dev/null
  return 0
}
trap cleanup EXIT

say() { echo "[gpu-check +$(( $(date +%s) - T_START ))s] $*" | tee -a "$SUMMARY"; }
left() { echo $(( DEADLINE_S - ($(date +%s) - T_START) )); }
wanted() { [[ "$STEPS" == *",$1,"* ]]; }

# step NAME LOG CAP cmd...: cmd (output appended to LOG) under timeout min(CAP, time left) (a shell function gets it as
# STEP_T and keeps to it itself); prints status, wall time and the GPU's peak memory and use meanwhile; the step's own
# output stays in $STEP_OUT for figures; returns cmd's rc (124 timed out, 125 skipped for lack of time)
STEP_OUT="$WORK/step.out"
step() {
  local name="$1" log="$2" cap=$(( $3 * CAP_SCALE )); shift 3
  local remain; remain=$(left)
  : > "$STEP_OUT"
  if (( remain < 15 )); then say "SKIP  $name (${remain}s left of ${DEADLINE_S}s)"; return 125; fi
  local t=$(( cap < remain ? cap : remain )) n0=0 s0 off; s0=$(date +%s%N)
  [[ -f "$SMILOG" ]] && n0=$(wc -l < "$SMILOG")
  printf '\n===== %s (cap %ss): %s\n' "$name" "$t" "$*" >> "$log"
  off=$(stat -c %s "$log")
  if declare -F "$1" > /dev/null; then STEP_T="$t" "$@" >> "$log" 2>&1; else timeout --kill-after=10 "$t" "$@" >> "$log" 2>&1; fi
  local rc=$? gpu="" wall
  tail -c +"$((off + 1))" "$log" > "$STEP_OUT"
  wall=$(awk -v a="$s0" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
  [[ -s "$SMILOG" ]] && gpu=$(tail -n +"$((n0 + 1))" "$SMILOG" | awk -F', *' '{u=$2+0; m=$3+0; if (u>mu) mu=u; if (m>mm) mm=m} END {if (NR) printf "; GPU peak %d MiB, util %d%%", mm, mu}')
  echo "----- $name: rc=$rc wall=${wall}s$gpu" >> "$log"
  if (( rc == 0 )); then say "OK    $name  ${wall}s$gpu"; else say "FAIL  $name  rc=$rc ${wall}s$gpu (log $(basename "$log"))"; FAILS=$((FAILS + 1)); fi
  return $rc
}
figures() { # LABEL PATTERN: the last step's result lines, labelled, into the summary now and into its figures at the end
  grep -aE "$2" "$STEP_OUT" 2>/dev/null | sed "s/^/    [$1] /" | tee -a "$SUMMARY" >> "$FIGURES"
}

# ---------------------------------------------------------------- env
ENVLOG="$OUT/02-env.log"
TORCH_PY="${TORCH_PY:-/opt/torch/.venv/bin/python3}"; [[ -x "$TORCH_PY" ]] || TORCH_PY="$(command -v python3)"
{
  nvidia-smi -L; nvidia-smi | head -20
  echo "cpus $(nproc)"; free -g; df -h "$WORK" | tail -1
  for c in g++ cmake ninja make nvcc curl; do printf '%-6s %s\n' "$c" "$(command -v $c || echo -)"; done
  "$TORCH_PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")'
  "$TORCH_PY" -c 'import transformers, peft; print("transformers", transformers.__version__, "peft", peft.__version__)'
  # a possible anchor for a later side-by-side: only whether it imports, and its version
  "$TORCH_PY" -c 'import vllm; print("vllm", vllm.__version__)' 2>/dev/null || echo "vllm -"
} > "$ENVLOG" 2>&1
say "repo $REPO, kit $KIT, out $OUT, device $DEVICE, deadline ${DEADLINE_S}s, steps ${STEPS//,/ }"
grep -E "^(GPU |torch |transformers |vllm )" "$ENVLOG" | sed 's/^/    /' | tee -a "$SUMMARY"
# the helpers must at least compile where they cannot run (no transformers: the anchor is skipped)
if PYTHONPYCACHEPREFIX="$WORK/pycache" "$TORCH_PY" -m py_compile "$REPO/deploy/gpu/hf_anchor.py" "$REPO/deploy/gpu/gpu_cluster.py" >> "$ENVLOG" 2>&1; then
  say "OK    hf_anchor.py and gpu_cluster.py compile"
else
  say "FAIL  hf_anchor.py or gpu_cluster.py does not compile (log $(basename "$ENVLOG"))"; FAILS=$((FAILS + 1))
fi
if [[ "$DEVICE" != cpu ]] && command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits -lms 1000 > "$SMILOG" 2>&1 &
  SMI_PID=$!
fi

# ---------------------------------------------------------------- the JRE, the jars, the model folders
JRE="$WORK/jre"
untar() { tar -xJf "$1" -C "$WORK" 2>/dev/null || "$TORCH_PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$WORK"; }
[[ -x "$JRE/bin/java" ]] || untar "$KIT/jre.tar.xz"
[[ -d "$WORK/lib" ]] || untar "$KIT/lib.tar.xz"
export PATH="$JRE/bin:$PATH"
export FONTCONFIG_FILE="$JRE/lib/fonts/fonts.conf" # the kit's fonts: the machine may have none (make-kit.sh)
if [[ "${GPUCHECK_CLASSLOG:-0}" == 1 ]]; then
  rm -rf "$WORK/classlog"; mkdir -p "$WORK/classlog"
  export JAVA_TOOL_OPTIONS="-Xlog:class+load=info:file=$WORK/classlog/%p.log"
fi
CP="$WORK/lib/*"
JAVA=(java -XX:+UseParallelGC -DDJL_OFFLINE=true -DOPT_OUT_TRACKING=true -cp "$CP")
COACH=("${JAVA[@]}" -Xmx6g dev.toolcoach.coachnode.CoachNodeMain)
QB=("${JAVA[@]}" -Xmx4g dev.toolcoach.bench.model.QwenShapeBench)
say "java: $(java -version 2>&1 | grep -v '^Picked up' | head -1)"

if (( SMALL )); then S05=tiny; S15=tiny; ROWS=2; TOKENS=96; MICROS=1,2; DECODE=1,4; NEW=8; ENGINE_S=2
else S05=0.5b; S15=1.5b; ROWS=8; TOKENS=512; MICROS=1,4,8; DECODE=1,8,64; NEW=32; ENGINE_S=4; fi
QTASK="$WORK/qwen-task"; Q05="$WORK/qwen-$S05"; Q15="$WORK/qwen-$S15-b"; Q7="$WORK/qwen-7b"
# one JVM at a time, in the background: pure Java (no torch), so it runs while the JNI builds; each folder is marked
# written when whole, and a step waits for its folder
WRITELOG="$OUT/05-write.log"
writes=()
{ wanted engine; } && writes+=("task $QTASK")
{ wanted decode || wanted grpo05 || wanted usermodel; } && writes+=("$S05 $Q05")
wanted grpo15 && writes+=("$S15 $Q15")
wanted grpo7 && (( ! SMALL )) && writes+=("7b $Q7")
write_models() { # one "SIZE DIR" an argument, in turn
  local w size dir
  for w in "$@"; do
    read -r size dir <<< "$w"
    [[ -f "$dir/.written" ]] && continue
    "${JAVA[@]}" -Xmx8g dev.toolcoach.bench.model.QwenShapeBench write "$dir" "$size" &
    echo $! > "$WORK/writer.pid"
    wait $! && touch "$dir/.written"
  done
}
if (( ${#writes[@]} )); then
  write_models "${writes[@]}" > "$WRITELOG" 2>&1 &
  WRITER_PID=$!
fi
written() { # written DIR: waits (within the deadline) for the writer to finish DIR
  while [[ ! -f "$1/.written" ]]; do
    if ! kill -0 "$WRITER_PID" 2>/dev/null || (( $(left) < 15 )); then say "SKIP  $(basename "$1"): the writer did not write it (log $(basename "$WRITELOG"))"; return 1; fi
    sleep 1
  done
}

# ---------------------------------------------------------------- jni
JNILOG="$OUT/03-jni.log"
ENV_FILE="$WORK/torch/torch.env"
QUICK=(); [[ "${GPUCHECK_JNI_QUICK:-0}" == 1 ]] && QUICK=(--quick)
if wanted jni || [[ ! -f "$ENV_FILE" ]]; then
  step "jni (install-torch-jni.sh, -j$JOBS)" "$JNILOG" 300 bash "$REPO/deploy/gpu/install-torch-jni.sh" --python "$TORCH_PY" \
    --prefix "$WORK/torch" --jobs "$JOBS" --jni-include "$KIT/jni-include" "${QUICK[@]}"
  figures jni "install-torch-jni: (torch|built in|reused in)"
  cp "$WORK/torch/build.log" "$OUT/03-jni-build.log" 2>/dev/null
fi
[[ -f "$ENV_FILE" ]] || { say "STOP: no torch.env, nothing can run on the JVM"; exit 3; }
# shellcheck disable=SC1090
source "$ENV_FILE"

# ---------------------------------------------------------------- doctor
DOCLOG="$OUT/04-doctor.log"
DOCTOR_LINES="^(engine|jni|devices|device|matmul|fused attention|bf16 base|f16 base|verdict)"
if wanted doctor; then
  step "doctor --device $DEVICE (auto precision)" "$DOCLOG" 90 "${COACH[@]}" doctor --device "$DEVICE"
  figures doctor "$DOCTOR_LINES"
fi

# ---------------------------------------------------------------- engine, decode, grpo05
BENCHLOG="$OUT/06-bench.log"
HFLOG="$OUT/07-hf-anchor.log"
HAVE_HF=0; grep -q "^transformers " "$ENVLOG" && HAVE_HF=1
HF_DEVICE="$([[ $DEVICE == cpu ]] && echo cpu || echo cuda)"
generate() { # generate LABEL DIR: greedy decode through the engine at each batch size, f32 and bf16 base
  local p
  for p in f32 bf16; do
    step "$1 greedy decode batch $DECODE, base $p" "$BENCHLOG" 150 "${QB[@]}" generate "$2" "$NEW" "$DECODE" "$p" && figures "$1 $p" "^greedy batch"
  done
}
grpo() { # grpo LABEL DIR MICROS PRECISIONS
  local p
  for p in ${4//,/ }; do
    step "$1 grpo $ROWS x $TOKENS, micro $3, base $p" "$BENCHLOG" 240 "${QB[@]}" grpo "$2" "$ROWS" "$TOKENS" "$3" "$p" 2 && figures "$1" "^GRPO step"
  done
}
anchor() { # anchor LABEL DIR MICROS DECODES: transformers (+ peft for a step) eager, f32 and bf16
  (( HAVE_HF )) || { say "SKIP  hf anchor $1 (no transformers/peft in $TORCH_PY)"; return 0; }
  step "hf anchor $1 (transformers eager, f32 and bf16; decode ${4:--}, step micro ${3:--})" "$HFLOG" 300 "$TORCH_PY" \
    "$REPO/deploy/gpu/hf_anchor.py" "$2" --rows "$ROWS" --tokens "$TOKENS" --micro "$3" --decode "$4" --new "$NEW" --device "$HF_DEVICE"
  figures "$1" "^hf "
}
if wanted engine && written "$QTASK"; then
  generate task "$QTASK"
  step "task shape: the engine alone, sampled, sequences joining and leaving, B=$DECODE" "$BENCHLOG" 120 \
    "${JAVA[@]}" -Xmx4g dev.toolcoach.bench.model.EngineBench finance "$ENGINE_S" "$DECODE" decode && figures "task engine" "^(shape|B=)"
  anchor task "$QTASK" "" "$DECODE"
fi
if { wanted decode || wanted grpo05; } && written "$Q05"; then
  wanted decode && generate "$S05" "$Q05"
  wanted grpo05 && grpo "$S05" "$Q05" "$MICROS" f32,bf16
  anchor "$S05" "$Q05" "$(wanted grpo05 && echo "$MICROS")" "$(wanted decode && echo "$DECODE")"
fi

# ---------------------------------------------------------------- train, serve, cluster
RUNS="$WORK/runs"
TRAINLOG="$OUT/08-train.log"
# the rehearsal's recipe: the task model's shape, two passes of warm-up, two small GRPO steps, 20 test questions
SMALL_RECIPE='{"shape": {"dim": 128, "hiddenDim": 384, "layers": 4, "heads": 4, "kvHeads": 4, "maxSeqLen": 512},
  "maxMerges": 256, "minMergeCount": 8, "warmupTraces": 240, "warmupEpochs": 2, "warmupBatch": 16, "warmupLr": 0.003,
  "warmupHeldOut": 20, "warmupPatience": 0, "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 2, "temperature": 1.0,
  "grpoLr": 0.001, "callWeight": 0.5, "lora": {"r": 16, "alpha": 32.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]},
  "oversampling": 1, "maxTurns": 4, "maxTotalTokens": 512, "maxNewTokens": 64, "engineBatch": 64,
  "actionFormat": "tool-n1-compact", "testExamples": 20, "passAtKQueries": 4}'
echo "$SMALL_RECIPE" > "$WORK/small-recipe.json"
TRAIN_ARGS=(--task finance); (( SMALL )) && TRAIN_ARGS=(--task finance --recipe "$WORK/small-recipe.json" --checkpoint-every 1)
if wanted train; then
  rm -rf "$RUNS/gpu-train"
  if ! step "train ${TRAIN_ARGS[*]} --device $DEVICE (the main job)" "$TRAINLOG" "$TRAIN_CAP" "${COACH[@]}" train "${TRAIN_ARGS[@]}" \
      --device "$DEVICE" --runs "$RUNS" --name gpu-train; then
    # how far it got: its last progress lines, without their bars
    grep -a "^\[finance\]" "$STEP_OUT" | sed 's/ \[[= ]*\] / /' | tail -n 4 | sed 's/^/    [train, cut] /' | tee -a "$SUMMARY" >> "$FIGURES"
  fi
  figures train "^(evaluation|before_training|after_warmup|after_grpo|groups trained)"
fi
if wanted serve; then
  SERVELOG="$OUT/09-serve.log"
  MODEL="$RUNS/gpu-train/distilled"; [[ -f "$MODEL/config.json" ]] || MODEL="$RUNS/gpu-train/init"
  if [[ -f "$MODEL/config.json" ]]; then
    ADAPTER=(); [[ -f "$RUNS/gpu-train/adapter/adapter_config.json" ]] && ADAPTER=(--adapter "$RUNS/gpu-train/adapter")
    serve_once() {
      local port=18765 pid rc=1
      "${COACH[@]}" serve --model "$MODEL" "${ADAPTER[@]}" --device "$DEVICE" --port $port &
      pid=$!
      "$TORCH_PY" "$REPO/deploy/gpu/gpu_cluster.py" serve-request --port $port --timeout $(( STEP_T - 15 )) && rc=0
      kill "$pid"; wait "$pid" 2>/dev/null
      return $rc
    }
    step "serve $(basename "$MODEL") --device $DEVICE, one chat completion" "$SERVELOG" 90 serve_once
    figures serve "^serve-request"
  else
    say "SKIP  serve (train left no model in $RUNS/gpu-train)"
  fi
fi
cluster_job() { # cluster_job LOGS JOB [MODELS]: JOB posted to a coach + athlete + tool node cluster, the nodes' logs
  # $OUT/LOGS-<node>.log; MODELS: the coach's models folder
  rm -rf "$WORK/cluster-runs"
  "$TORCH_PY" "$REPO/deploy/gpu/gpu_cluster.py" cluster --java "$JRE/bin/java" --classpath "$CP" --device "$DEVICE" \
    --runs "$WORK/cluster-runs" --logs "$OUT/$1" --job "$2" ${3:+--models "$3"} --timeout $(( STEP_T - 10 ))
}
if wanted cluster; then
  step "cluster: coach + athlete on $DEVICE, tool node, a small finance job" "$OUT/10-cluster.log" 180 cluster_job 10-cluster \
    "{\"task\": \"finance\", \"name\": \"gpu-cluster\", \"recipe\": $SMALL_RECIPE}"
  figures cluster "^cluster:"
fi

USERLOG="$OUT/11-usermodel.log"
BASE_ARGS=(--task finance); USER_ARGS=(--task finance --steps 10)
(( SMALL )) && BASE_ARGS=(--task finance --recipe "$WORK/small-recipe.json") \
  && USER_ARGS=(--task finance --recipe "$WORK/small-recipe.json" --steps 2)
warmup_base() { # the warm-up alone: its distilled/ folder is the user's model of the steps after it
  rm -rf "$RUNS/gpu-base"
  step "train ${BASE_ARGS[*]} --steps 0 --device $DEVICE (the warm-up alone)" "$USERLOG" 150 "${COACH[@]}" train \
    "${BASE_ARGS[@]}" --steps 0 --device "$DEVICE" --runs "$RUNS" --name gpu-base || return 1
  figures "user base" "^(before_training|after_warmup|no training steps|wall time)"
}
if wanted usermodel; then
  # room for the tools' specifications in byte-level tokens; every group trained, rewarded or not
  echo '{"groupSize": 4, "groupsPerStep": 2, "oversampling": 1, "maxTurns": 2, "maxTotalTokens": 4096, "maxNewTokens": 32,
    "testExamples": 8, "passAtKQueries": 2}' > "$WORK/user-recipe.json"
  if written "$Q05"; then
    rm -rf "$RUNS/gpu-user05"
    step "train --model $(basename "$Q05") --task finance --steps 2 --device $DEVICE (a user's folder)" "$USERLOG" 120 \
      "${COACH[@]}" train --model "$Q05" --task finance --recipe "$WORK/user-recipe.json" --steps 2 --device "$DEVICE" \
      --runs "$RUNS" --name gpu-user05
    figures "user $S05" "^(before_training|after_grpo|groups trained|wall time)"
  fi
  rm -rf "$RUNS/gpu-user"
  if warmup_base; then
    step "train --model gpu-base/distilled ${USER_ARGS[*]} --device $DEVICE" "$USERLOG" 150 "${COACH[@]}" train \
      --model "$RUNS/gpu-base/distilled" "${USER_ARGS[@]}" --device "$DEVICE" --runs "$RUNS" --name gpu-user
    figures "user distilled" "^(before_training|after_grpo|groups trained|wall time)"
  fi
fi
if wanted clustermodel && { [[ -f "$RUNS/gpu-base/distilled/config.json" ]] || warmup_base; }; then
  # the coach's models folder holds the warm-up's run, and the job names its distilled/ folder, as cluster.sh train
  # --model sends it; the rehearsal's job keeps to the small recipe's test questions
  USER_STEPS=10; USER_JOB_RECIPE=""; (( SMALL )) && USER_STEPS=2 && USER_JOB_RECIPE=", \"recipe\": $SMALL_RECIPE"
  step "cluster: POST /jobs with the model distilled (the warm-up's), $USER_STEPS steps, athlete on $DEVICE" \
    "$OUT/12-cluster-model.log" 180 cluster_job 12-cluster-model \
    "{\"task\": \"finance\", \"name\": \"gpu-cluster-user\", \"model\": \"distilled\", \"steps\": $USER_STEPS$USER_JOB_RECIPE}" \
    "$RUNS/gpu-base"
  figures "cluster user" "^cluster:"
fi

# ---------------------------------------------------------------- grpo15, grpo7, doctor16
if wanted grpo15 && written "$Q15"; then
  grpo "$S15" "$Q15" "${MICROS%,*}" f32,bf16
  anchor "$S15" "$Q15" "${MICROS%,*}" ""
fi
if wanted grpo7 && (( ! SMALL )) && written "$Q7"; then
  grpo 7b "$Q7" 1 bf16
fi
if wanted doctor16; then
  step "doctor --device $DEVICE --precision f16" "$DOCLOG" 90 "${COACH[@]}" doctor --device "$DEVICE" --precision f16
  figures "doctor f16" "^(f16 base|verdict)"
fi

if [[ -d "$WORK/classlog" ]]; then # the jars' names without their versions, as make-kit.sh matches them
  cat "$WORK"/classlog/*.log | grep -ao "source: file:$WORK/lib/[^ ]*\.jar" | sed 's|.*/||; s/-[0-9].*\.jar$//' \
    | sort -u > "$OUT/jars-loaded.txt"
  say "classes came from $(wc -l < "$OUT/jars-loaded.txt") of the kit's $(ls "$WORK/lib" | wc -l) jars: $OUT/jars-loaded.txt"
fi
say "done in $(( $(date +%s) - T_START ))s, $FAILS step(s) failed"
echo "===== figures" | tee -a "$SUMMARY"
tee -a "$SUMMARY" < "$FIGURES"
(( FAILS == 0 ))
