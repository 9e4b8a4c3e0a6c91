#!/usr/bin/env bash
# Chaos run: a training job on a local multi-JVM cluster (cluster.sh) survives, on a schedule, an athlete JVM
# killed with SIGKILL, the tool node stopped and restarted, an athlete paused (SIGSTOP) past the time the
# cluster waits for it, and the coach killed with SIGKILL and brought back (the job resumes from its newest
# checkpoint). Then it audits the run folder:
#   - the job finished, and every training step is recorded exactly once (1..M, M = N unless dropped groups left
#     too few to fill N steps: each drop costs at most one step, as the recipe does not over-sample);
#   - the restarted coach resumed from the newest checkpoint written before the kill, at that step's adapter version;
#   - no rollout is recorded twice, no group belongs to two steps, and each step's scored groups are its traces;
#   - every checkpoint verifies (coach-node checkpoints);
#   - after cluster.sh down no process of this run is left.
#
#   chaos.sh [--task T] [--steps N] [--pause SECONDS] [--model DIR] [--short]
#   chaos.sh --soak MINUTES [--kill-every SECONDS] [--task T] [--model DIR]
#
# --model DIR: the job trains a LoRA adapter over that Hugging Face folder (copied into the coach's models folder,
# which every node reads) instead of a model the job builds; athletes prove they hold the same model by its digest.
# --short: fewer steps and 30 test questions, not 100 (CI); the faults come at fixed early steps, so the job must
# outlast them. Prints each fault with its time, the audit, and ends 0 when the audit passes.
# --soak: the chaos run at length: 4 athletes, one of them killed with SIGKILL every --kill-every seconds (300) and
# replaced, for MINUTES; then the job is cancelled and audited as above (cancelled instead of finished; no coach kill,
# so no resume to check). Every node's resident size is sampled every 30 s into rss.csv and summed up per node:
# first, last, peak and the slope over the second half of the run.
# Everything lives under $TOOLCOACH_CHAOS_DIR (default .chaos/ at the repository root), which is cleared first.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CHAOS_DIR="${TOOLCOACH_CHAOS_DIR:-$REPO/.chaos}"
export TOOLCOACH_RUN_DIR="$CHAOS_DIR/cluster" TOOLCOACH_RUNS_DIR="$CHAOS_DIR/runs" TOOLCOACH_MODELS_DIR="$CHAOS_DIR/models"
export DJL_OFFLINE=true OPT_OUT_TRACKING=true
CLUSTER="$REPO/deploy/local/cluster.sh"
JOB=chaos-job
RUN="$TOOLCOACH_RUNS_DIR/$JOB"

task=finance steps=300 pause=30 model= soak=0 kill_every=300 test_examples=100
while (( $# )); do
  case "$1" in
    --task) task="${2:?--task needs a value}"; shift 2 ;;
    --steps) steps="${2:?--steps needs a value}"; shift 2 ;;
    --pause) pause="${2:?--pause needs a value}"; shift 2 ;;
    --model) model="${2:?--model needs a folder}"; [[ -f "$model/config.json" ]] || { echo "chaos.sh: --model $model has no config.json" >&2; exit 2; }
      model="$(realpath "$model")"; shift 2 ;;
    --short) steps=40; pause=20; test_examples=30; shift ;;
    --soak) soak="${2:?--soak needs minutes}"; [[ "$soak" =~ ^[1-9][0-9]*$ ]] || { echo "chaos.sh: --soak needs a whole number of minutes" >&2; exit 2; }
      steps=100000; shift 2 ;;
    --kill-every) kill_every="${2:?--kill-every needs seconds}"; [[ "$kill_every" =~ ^[1-9][0-9]*$ ]] || { echo "chaos.sh: --kill-every needs a whole number of seconds" >&2; exit 2; }
      shift 2 ;;
    -h|--help) sed -n "2,15p" "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "chaos.sh: unknown option '$1' (use --task T, --steps N, --pause SECONDS, --model DIR, --short, --soak MINUTES, --kill-every SECONDS)" >&2; exit 2 ;;
  esac
done
[[ "$steps" =~ ^[0-9]+$ && "$steps" -ge 40 ]] || { echo "chaos.sh: --steps must be a number >= 40" >&2; exit 2; }
[[ "$pause" =~ ^[0-9]+$ ]] || { echo "chaos.sh: --pause must be a number of seconds" >&2; exit 2; }

started=$SECONDS
say() { printf '[%4ds] %s\n' $((SECONDS - started)) "$*"; }
fail() { say "FAILED: $*"; "$CLUSTER" down > /dev/null 2>&1 || true; exit 1; }

coach_url() { echo "http://127.0.0.1:$(cut -d' ' -f2 "$TOOLCOACH_RUN_DIR/coach.ports")/jobs"; }
job_status() { curl -sf "$(coach_url)" 2>/dev/null || true; }
last_step() { jq -r '.last_step.step // 0' <<< "$(job_status)" 2>/dev/null || echo 0; }

await_step() { # N: waits until the job has recorded step N (or ended), at most 10 minutes
  local deadline=$((SECONDS + 600))
  until (( $(last_step) >= $1 )); do
    (( SECONDS < deadline )) || fail "the job did not reach step $1 within 10 minutes"
    [[ "$(jq -r '.state // "running"' <<< "$(job_status)")" == running ]] || return 0
    sleep 1
  done
}

still_running() { # fault number: a fault after the job's end would test nothing
  [[ "$(jq -r '.state // "none"' <<< "$(job_status)")" == running ]] \
    || fail "the job ended before fault $1 could be injected; give it more --steps"
}

athlete_count() { find "$TOOLCOACH_RUN_DIR" -maxdepth 1 -name 'athlete-*.pid' | wc -l; }

rm -rf "$CHAOS_DIR"
mkdir -p "$CHAOS_DIR"
trap 'say "interrupted: stopping the cluster"; "$CLUSTER" down > /dev/null 2>&1; exit 130' INT TERM
# a recipe small enough to run a job in minutes: the cluster's plumbing is under test here, not learning; but its
# warm-up makes a policy whose groups sometimes differ in reward, so the learner trains and the adapter version the
# coach resumes at means something (with 8 warm-up traces and 64 merges every reply was cut off, every reward 0)
recipe="$CHAOS_DIR/recipe.json"
cat > "$recipe" <<EOF
{"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
 "maxMerges": 512, "minMergeCount": 2, "warmupTraces": 128, "warmupEpochs": 10, "warmupBatch": 8, "warmupLr": 0.02,
 "groupSize": 4, "groupsPerStep": 2, "grpoSteps": $steps, "temperature": 1.0, "grpoLr": 0.002, "callWeight": 0.5,
 "lora": {"r": 4, "alpha": 8.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]},
 "maxTurns": 3, "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8, "testExamples": $test_examples, "passAtKQueries": 0,
 "heldOutEvery": 20}
EOF

model_args=()
if [[ -n "$model" ]]; then
  # rollouts no longer than the model's context (a task-sized model built by train has 512 positions)
  context="$(jq -r '.max_position_embeddings // 768' "$model/config.json")"
  (( context < 768 )) && jq -c --argjson c "$context" '.maxTotalTokens = $c' "$recipe" > "$recipe.tmp" && mv "$recipe.tmp" "$recipe"
  mkdir -p "$TOOLCOACH_MODELS_DIR"
  cp -r "$model" "$TOOLCOACH_MODELS_DIR/user-model"
  model_args=(--model "$TOOLCOACH_MODELS_DIR/user-model")
fi
athletes=3; (( soak )) && athletes=4
say "cluster up: $athletes athlete nodes, 1 tool node"
"$CLUSTER" up --athletes $athletes --tools 1 > "$CHAOS_DIR/up.log" 2>&1 || fail "cluster.sh up (see $CHAOS_DIR/up.log)"
"$CLUSTER" train --detach --task "$task" --name "$JOB" --recipe "$recipe" --seed 5 --checkpoint-every 1 "${model_args[@]}" \
  > "$CHAOS_DIR/train.log" 2>&1 || fail "cluster.sh train (see $CHAOS_DIR/train.log)"
say "job $JOB submitted: task $task, $steps steps${model:+, a LoRA adapter over $model}"

faults=0
rss_sample() { # appends "seconds,node,resident KiB" for every node process alive now
  local file name pid rss
  for file in "$TOOLCOACH_RUN_DIR"/*.pid; do
    name="$(basename "$file" .pid)"; pid="$(cat "$file")"
    rss="$(ps -o rss= -p "$pid" 2> /dev/null | tr -d ' ' || true)"
    [[ -n "$rss" ]] && echo "$((SECONDS - started)),$name,$rss" >> "$CHAOS_DIR/rss.csv"
  done
  return 0
}
live_athlete() { # the lowest-numbered athlete whose process is alive
  local file
  for file in $(find "$TOOLCOACH_RUN_DIR" -maxdepth 1 -name 'athlete-*.pid' | sort -V); do
    kill -0 "$(cat "$file")" 2> /dev/null && { basename "$file" .pid; return 0; }
  done
  return 1
}

if (( soak )); then
  await_step 2; still_running 1
  echo "seconds,node,rss_kib" > "$CHAOS_DIR/rss.csv"
  end=$((SECONDS + soak * 60)) next_kill=$((SECONDS + kill_every)) next_sample=$SECONDS
  while (( SECONDS < end )); do
    still_running $((faults + 1))
    if (( SECONDS >= next_sample )); then rss_sample; next_sample=$((SECONDS + 30)); fi
    if (( SECONDS >= next_kill )); then
      victim="$(live_athlete)" || fail "no athlete left alive to kill"
      say "fault $((faults + 1)) at step $(last_step): SIGKILL $victim, then a new athlete node joins"
      "$CLUSTER" signal "$victim" KILL > /dev/null; faults=$((faults + 1))
      "$CLUSTER" scale --athletes $(( $(athlete_count) + 1 )) >> "$CHAOS_DIR/up.log" 2>&1 || fail "scale after killing $victim"
      next_kill=$((SECONDS + kill_every))
    fi
    sleep 5
  done
  rss_sample
  say "soak over after $soak minutes at step $(last_step): the job is cancelled"
  curl -sf -X POST "$(coach_url)/$JOB/cancel" > /dev/null || fail "the coach refused to cancel the job"
else
  await_step 2; still_running 1
  say "fault 1 at step $(last_step): SIGKILL athlete-1, then a new athlete node joins"
  "$CLUSTER" signal athlete-1 KILL > /dev/null; faults=$((faults + 1))
  "$CLUSTER" scale --athletes $(( $(athlete_count) + 1 )) >> "$CHAOS_DIR/up.log" 2>&1 || fail "scale after the kill"

  await_step 6; still_running 2
  say "fault 2 at step $(last_step): tool-1 stopped and restarted"
  "$CLUSTER" restart tool-1 >> "$CHAOS_DIR/up.log" 2>&1 || fail "restart tool-1"; faults=$((faults + 1))

  await_step 10; still_running 3
  say "fault 3 at step $(last_step): SIGSTOP athlete-2 for ${pause}s (past the failure detector and split-brain resolver)"
  "$CLUSTER" signal athlete-2 STOP > /dev/null; faults=$((faults + 1))
  sleep "$pause"
  "$CLUSTER" signal athlete-2 CONT > /dev/null || say "  athlete-2 is gone"
  "$CLUSTER" scale --athletes $(( $(athlete_count) + 1 )) >> "$CHAOS_DIR/up.log" 2>&1 || fail "scale after the pause"

  await_step 14; still_running 4
  say "fault 4 at step $(last_step): SIGKILL the coach, then cluster.sh up (the job resumes from its checkpoint)"
  coach_pid="$(cat "$TOOLCOACH_RUN_DIR/coach.pid")"
  "$CLUSTER" signal coach KILL > /dev/null; faults=$((faults + 1))
  while kill -0 "$coach_pid" 2>/dev/null; do sleep 0.2; done
  # the checkpoint a resume must start from: the newest one the dead coach left
  newest_checkpoint="$(find "$RUN/checkpoints" -name 'checkpoint-*.tcc' | sed -E 's/.*checkpoint-([0-9]+)\.tcc/\1/' \
    | sort -n | tail -1 | sed -E 's/^0+([0-9])/\1/')"
  [[ -n "$newest_checkpoint" ]] || fail "no checkpoint in $RUN/checkpoints before the coach was killed"
  "$CLUSTER" up --athletes 2 --tools 1 >> "$CHAOS_DIR/up.log" 2>&1 || fail "cluster.sh up after the coach kill"
fi

deadline=$((SECONDS + 900))
until [[ "$(jq -r '.state // "running"' <<< "$(job_status)")" != running ]]; do
  (( SECONDS < deadline )) || fail "the job did not end within 15 minutes after the last fault"
  sleep 2
done
state="$(jq -r .state <<< "$(job_status)")"
say "job ended: $state"
resumed="$(grep -o 'resuming from the checkpoint after job step [0-9]* (learner step [0-9]*, adapter version [0-9]*)' \
  "$TOOLCOACH_RUN_DIR/coach.log" | head -1 || true)"

# --- audit ---------------------------------------------------------------------------------------------
problems=()
ended=finished; (( soak )) && ended=cancelled
[[ "$state" == "$ended" ]] || problems+=("the job ended $state: $(jq -r .error <<< "$(job_status)")")
if (( soak )); then
  : # no coach was killed: nothing resumed
elif [[ -z "$resumed" ]]; then
  problems+=("the restarted coach did not resume from a checkpoint")
else
  resumed_job_step="$(sed 's/.*after job step \([0-9]*\).*/\1/' <<< "$resumed")"
  version_at_checkpoint="$(jq -r "select(.step == $resumed_job_step) | .version" "$RUN/metrics.jsonl" | head -1)"
  resumed_learner_step="$(sed 's/.*learner step \([0-9]*\).*/\1/' <<< "$resumed")"
  resumed_version="$(sed 's/.*adapter version \([0-9]*\).*/\1/' <<< "$resumed")"
  [[ "$resumed_learner_step" == "$newest_checkpoint" ]] \
    || problems+=("resumed from checkpoint $resumed_learner_step, the newest was $newest_checkpoint")
  [[ "$resumed_version" == "$version_at_checkpoint" ]] \
    || problems+=("resumed at adapter version $resumed_version, the job had version $version_at_checkpoint at that step")
fi
recorded="$(jq -s -c '[.[].step]' "$RUN/metrics.jsonl")"
last="$(jq -s 'length' "$RUN/metrics.jsonl")"
expected="$(jq -n -c "[range(1; $last + 1)]")"
drops="$(jq -s 'map(.groups_sampled - .groups) | add // 0' "$RUN/metrics.jsonl")"
[[ "$recorded" == "$expected" ]] || problems+=("steps recorded $recorded, expected each of 1..$last once")
(( soak || (last <= steps && last >= steps - drops) )) || problems+=("$last steps recorded of $steps, with $drops groups dropped")
trained_version="$(jq -s 'map(.version) | max' "$RUN/metrics.jsonl")"
(( trained_version > 0 )) || problems+=("the learner never trained (adapter version 0): the audit of resumed versions tests nothing")
rollouts="$(jq -r .rollout_id "$RUN/traces.jsonl" | wc -l)"
distinct="$(jq -r .rollout_id "$RUN/traces.jsonl" | sort -u | wc -l)"
(( rollouts == distinct )) || problems+=("$((rollouts - distinct)) rollouts recorded twice")
split="$(jq -r '"\(.group_id) \(.metadata.job_step)"' "$RUN/traces.jsonl" | sort -u | cut -d' ' -f1 | uniq -d | wc -l)"
(( split == 0 )) || problems+=("$split groups recorded in two steps")
mismatch="$(jq -n -r --slurpfile m "$RUN/metrics.jsonl" --slurpfile t "$RUN/traces.jsonl" '
  ($t | group_by(.metadata.job_step) | map({key: (.[0].metadata.job_step | tostring), value: (map(.group_id) | unique | length)})
      | from_entries) as $seen
  | [$m[] | select(.groups != ($seen[.step | tostring] // 0)) | .step] | length')"
(( mismatch == 0 )) || problems+=("$mismatch steps whose scored groups differ from their traces")
groups="$(jq -s 'map(.groups) | add' "$RUN/metrics.jsonl")"
dropped="$(jq -s 'map(.dropped) | add' "$RUN/metrics.jsonl")"
java -jar "$REPO/coach-node/target/coach-node.jar" checkpoints "$RUN" > "$CHAOS_DIR/checkpoints.json" 2>&1 \
  || problems+=("a checkpoint does not verify: $(cat "$CHAOS_DIR/checkpoints.json")")
checkpoints="$(jq '.checkpoints | length' "$CHAOS_DIR/checkpoints.json" 2>/dev/null || echo 0)"

"$CLUSTER" down > "$CHAOS_DIR/down.log" 2>&1 || problems+=("cluster.sh down failed (see $CHAOS_DIR/down.log)")
left="$(pgrep -f -- "-Dtoolcoach.node=[^ ]*@$TOOLCOACH_RUN_DIR( |$)" || true)"
[[ -z "$left" ]] || problems+=("processes left behind: $left")

if (( soak )); then
  say "resident size per node (MiB): first and last sample, peak; slope over the second half of the soak"
  awk -F, -v from=$(( $(sed -n 2p "$CHAOS_DIR/rss.csv" | cut -d, -f1) + soak * 30 )) 'NR > 1 {
      node = $2; t = $1; mib = $3 / 1024
      if (!(node in first)) { first[node] = mib; born[node] = t; order[++k] = node }
      last[node] = mib; died[node] = t; if (mib > peak[node]) peak[node] = mib
      if (t >= from) { n[node]++; sx[node] += t; sy[node] += mib; sxx[node] += t * t; sxy[node] += t * mib }
    }
    END {
      for (i = 1; i <= k; i++) {
        node = order[i]; line = sprintf("  %-11s %4ds-%4ds  first %6.0f  last %6.0f  peak %6.0f", node, born[node], died[node],
          first[node], last[node], peak[node])
        d = n[node] * sxx[node] - sx[node] * sx[node]
        if (born[node] <= from && n[node] >= 10 && d > 0)
          line = line sprintf("  slope %+6.1f MiB/h (%d samples)", 3600 * (n[node] * sxy[node] - sx[node] * sy[node]) / d, n[node])
        print line
      }
    }' "$CHAOS_DIR/rss.csv"
fi
say "audit: $faults faults injected; $( (( soak )) && echo "$last" || echo "$last of $steps") steps recorded once each ($drops groups dropped):" \
  "$([[ "$recorded" == "$expected" ]] && echo yes || echo no); adapter version $trained_version;" \
  "$groups groups scored and $dropped dropped in $rollouts rollouts ($distinct distinct);" \
  "${resumed:-no resume}; $checkpoints checkpoints verified; processes left: ${left:-none}"
if (( ${#problems[@]} )); then
  for p in "${problems[@]}"; do say "PROBLEM: $p"; done
  exit 1
fi
say "chaos run passed"
