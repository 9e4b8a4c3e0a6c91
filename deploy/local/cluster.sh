#!/usr/bin/env bash
# Runs a ToolCoach cluster on this machine: one coach node, N athlete nodes and M tool nodes, each a
# separate JVM on 127.0.0.1. State (PID files, ports, logs) lives in the run folder, $TOOLCOACH_RUN_DIR
# or .run/ at the repository root.
#
#   cluster.sh up [--athletes N] [--tools M] [--model DIR] [--heap SIZE]
#                                              start the cluster and wait until every node is ready; after a coach
#                                              crash it first stops the nodes left behind, and the coach resumes its job;
#                                              heaps are sized from --model (see heap), or --heap for every node
#   cluster.sh heap [--model DIR] [--heap SIZE] the heap each kind of node gets: coach 512 MiB + the model's f32
#                                              weight bytes (weights live in native memory), athlete and tool 512 MiB
#   cluster.sh status                          members with roles and state, and the local processes
#   cluster.sh scale --athletes K              add or remove athlete nodes while the cluster runs
#   cluster.sh train --task T [...] [--detach]  run a training job on the cluster: the coach node runs it
#                                              (POST /jobs), athletes roll out; options as coach-node train
#                                              (--model DIR: a folder inside the coach's models folder;
#                                              --spec FILE: the job as the POST /jobs body, flags replace its values)
#   cluster.sh signal NAME SIGNAL              send KILL, STOP, CONT or TERM to one node this script started
#   cluster.sh restart NAME                    stop an athlete or tool node gracefully and start it again
#   cluster.sh down                            leave gracefully and stop every node this script started
#
# Environment: TOOLCOACH_MODEL (default for --model), TOOLCOACH_MODELS_DIR (the coach's models folder, which train
# --model names a folder inside; default models/ at the repository root), TOOLCOACH_RUN_DIR, TOOLCOACH_RUNS_DIR (the coach's training
# runs, where its jobs resume from; default runs/ at the repository root), TOOLCOACH_JAVA_OPTS (JVM options; an -Xmx
# there wins over the sizing), TOOLCOACH_READY_TIMEOUT (seconds, default 180), TOOLCOACH_STOP_TIMEOUT (seconds,
# default 60), TOOLCOACH_BASE_PORT (first cluster port tried, default 25520), TOOLCOACH_BASE_MANAGEMENT_PORT (first
# management port tried, default 8558),
# TOOLCOACH_JOBS_TOKEN (the coach requires it on POST /jobs and train sends it; optional on loopback),
# TOOLCOACH_TORCH_ENV (the environment file of deploy/gpu/install-torch-jni.sh: every node runs on that installed
# PyTorch), TOOLCOACH_DEVICE and TOOLCOACH_PRECISION (every node's --device and --precision).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RUN_DIR="${TOOLCOACH_RUN_DIR:-$REPO/.run}"
RUNS_DIR="${TOOLCOACH_RUNS_DIR:-$REPO/runs}"
DATA_DIR="$(realpath -m "$REPO/../shared/data")"
# the coach's models folder: train --model names a Hugging Face folder inside it
MODELS_DIR="$(realpath -m "${TOOLCOACH_MODELS_DIR:-$REPO/models}")"
CONF_DIR="$REPO/deploy/conf"
READY_TIMEOUT="${TOOLCOACH_READY_TIMEOUT:-180}"
STOP_TIMEOUT="${TOOLCOACH_STOP_TIMEOUT:-60}"
BASE_PORT="${TOOLCOACH_BASE_PORT:-25520}"
BASE_MANAGEMENT_PORT="${TOOLCOACH_BASE_MANAGEMENT_PORT:-8558}"
JAVA_OPTS="${TOOLCOACH_JAVA_OPTS:--XX:+UseSerialGC}"
export DJL_OFFLINE=true OPT_OUT_TRACKING=true

die() { echo "cluster.sh: $*" >&2; exit 1; }
for tool in java curl jq; do
  command -v "$tool" > /dev/null || die "$tool is not installed (on Debian: apt-get install $tool; java: openjdk-17-jre-headless)"
done
usage() { sed -n "2,18p" "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
if [[ -n "${TOOLCOACH_TORCH_ENV:-}" ]]; then # the nodes inherit it: DJL loads the installed torch and its JNI
  [[ -r "$TOOLCOACH_TORCH_ENV" ]] || die "TOOLCOACH_TORCH_ENV=$TOOLCOACH_TORCH_ENV is not a readable file (deploy/gpu/install-torch-jni.sh writes it)"
  # shellcheck disable=SC1090
  source "$TOOLCOACH_TORCH_ENV"
fi

jar_of() { # node kind -> its shaded jar
  local jar="$REPO/$1-node/target/$1-node.jar"
  [[ -f "$jar" ]] || die "$jar is missing; build first: mvn -B -DskipTests install"
  echo "$jar"
}

# --- run folder bookkeeping: <name>.pid, <name>.ports ("cluster management"), <name>.log ---------------

marker() { echo "-Dtoolcoach.node=$1@$RUN_DIR"; }

# A PID file is trusted only while that process still carries our marker, so a recycled PID is never killed.
live_pid() {
  local name="$1" pid
  [[ -f "$RUN_DIR/$name.pid" ]] || return 1
  pid="$(cat "$RUN_DIR/$name.pid")"
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$(marker "$name") " || return 1
  echo "$pid"
}

nodes() { # names of nodes with a PID file, coach first, then athletes and tools in number order
  local f
  for f in "$RUN_DIR"/coach.pid; do [[ -f "$f" ]] && basename "$f" .pid; done
  for f in "$RUN_DIR"/athlete-*.pid "$RUN_DIR"/tool-*.pid; do [[ -f "$f" ]] && basename "$f" .pid; done | sort -t- -k1,1 -k2,2n
  return 0
}

cluster_port() { cut -d' ' -f1 "$RUN_DIR/$1.ports"; }
management_port() { cut -d' ' -f2 "$RUN_DIR/$1.ports"; }
management_url() { echo "http://127.0.0.1:$(management_port "$1")"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

port_taken() { # listening now, or promised to a node of this run that may not have bound it yet
  port_in_use "$1" && return 0
  cat "$RUN_DIR"/*.ports 2>/dev/null | tr ' ' '\n' | grep -qx "$1"
}

pick_port() { # first free port from $1 upwards
  local port="$1"
  while port_taken "$port"; do
    port=$((port + 1))
    (( port < 65535 )) || die "no free port above $1"
  done
  echo "$port"
}

# --- heap sizes (MiB) ------------------------------------------------------------------------------
# A node that loads a model streams its weights into native (PyTorch) memory, so the heap does not grow with the
# model there; the coach's learner, though, writes full weights (a distilled or merged base) through host arrays on the
# heap. So the coach gets the model's f32 weight bytes on top of what the node itself needs, athletes and tool nodes
# 512 MiB. Native memory (the weights, once per JVM, and activations) comes on top of the heap: size the machine for it.
# Without a model the nodes get 512 MiB, as the small built-in recipes need.

model_f32_mib() { # model folder (safetensors) or llama2.c .bin -> MiB of its weights as f32
  local model="$1" bytes=0 widen=1 f dtype
  if [[ -d "$model" ]]; then
    [[ -f "$model/config.json" ]] || die "--model $model has no config.json (not a model folder)"
    dtype="$(jq -r '.torch_dtype // .dtype // "float32"' "$model/config.json" 2>/dev/null)" \
      || die "--model $model: config.json is not JSON"
    case "$dtype" in bfloat16|float16) widen=2 ;; esac
    for f in "$model"/*.safetensors; do [[ -f "$f" ]] && bytes=$((bytes + $(stat -c %s "$f"))); done
    (( bytes > 0 )) || die "--model $model has no *.safetensors weights"
  elif [[ -f "$model" ]]; then
    bytes="$(stat -c %s "$model")" # llama2.c: f32 already
  else
    die "--model $model: no such folder or file"
  fi
  echo $(( (bytes * widen + 1048575) / 1048576 ))
}

heap_mib() { # kind weights-MiB -> heap MiB
  local mib
  case "$1" in
    coach) mib=$(( 512 + $2 )) ;;
    *) mib=512 ;;
  esac
  (( mib < 512 )) && mib=512
  echo "$mib"
}

size_mib() { # a JVM size (e.g. 6g, 4096m) -> MiB
  [[ "$1" =~ ^([0-9]+)([mMgG])$ ]] || die "--heap needs a size such as 4096m or 6g, got '$1'"
  case "${BASH_REMATCH[2]}" in [gG]) echo $(( BASH_REMATCH[1] * 1024 )) ;; *) echo "${BASH_REMATCH[1]}" ;; esac
}

heap_plan() { # [--model DIR] [--heap SIZE] -> lines "kind MiB" for coach, athlete, tool
  local model="${TOOLCOACH_MODEL:-}" heap="" weights=0 kind
  while (( $# )); do
    case "$1" in
      --model) model="${2:-}"; [[ -n "$model" ]] || die "--model needs a folder"; shift 2 ;;
      --heap) heap="$(size_mib "${2:-}")"; shift 2 ;;
      *) die "unknown option '$1' (use --model DIR, --heap SIZE)" ;;
    esac
  done
  [[ -n "$model" ]] && weights="$(model_f32_mib "$model")"
  for kind in coach athlete tool; do echo "$kind ${heap:-$(heap_mib "$kind" "$weights")}"; done
}

heap_of() { # kind -> the -Xmx option from the run folder's plan (512 MiB when there is none)
  local mib
  mib="$(awk -v k="$1" '$1 == k { print $2 }' "$RUN_DIR/heaps" 2>/dev/null)"
  echo "-Xmx${mib:-512}m"
}

# --- node lifecycle --------------------------------------------------------------------------------

start_node() { # name kind [extra args...]
  local name="$1" kind="$2"; shift 2
  local jar; jar="$(jar_of "$kind")"
  local port management jvm=()
  # the coach runs the jobs in, and resumes an interrupted one from, the runs folder (an absolute path: any cwd)
  # and reads job data only from the data folder
  [[ "$kind" == coach ]] && jvm=("-Dtoolcoach.jobs.runs-dir=$(mkdir -p "$RUNS_DIR" && cd "$RUNS_DIR" && pwd)"
    "-Dtoolcoach.jobs.data-dir=$DATA_DIR" "-Dtoolcoach.jobs.models-dir=$MODELS_DIR")
  port="$(pick_port "$BASE_PORT")"
  echo "$port" > "$RUN_DIR/$name.ports" # reserve it before the JVM binds it
  management="$(pick_port "$BASE_MANAGEMENT_PORT")"; echo "$port $management" > "$RUN_DIR/$name.ports"
  [[ " $JAVA_OPTS" == *" -Xmx"* ]] || jvm+=("$(heap_of "$kind")")
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
  nohup java $JAVA_OPTS "$(marker "$name")" "${jvm[@]}" -jar "$jar" --config "$CONF_DIR/$kind.conf" \
      --port "$port" --management-port "$management" "$@" > "$RUN_DIR/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN_DIR/$name.pid"
  write_targets
}

forget_node() { rm -f "$RUN_DIR/$1.pid" "$RUN_DIR/$1.ports"; write_targets; }

# Prometheus's file-based discovery (deploy/monitoring/prometheus.yml): every node's management port, rewritten (and
# swapped in whole, as Prometheus reads it whenever it changes) each time a node starts or is forgotten
write_targets() {
  local ports name
  for ports in "$RUN_DIR"/*.ports; do
    [[ -e "$ports" ]] || continue
    name="$(basename "$ports" .ports)"
    jq -n --arg target "127.0.0.1:$(cut -d' ' -f2 "$ports")" --arg node "$name" --arg role "${name%-*}" \
      '{targets: [$target], labels: {node: $node, node_role: $role}}'
  done | jq -s . > "$RUN_DIR/prometheus-targets.json.tmp"
  mv "$RUN_DIR/prometheus-targets.json.tmp" "$RUN_DIR/prometheus-targets.json"
}

wait_ready() { # names...; waits until each answers /ready with 200, fails early if one dies
  local deadline=$((SECONDS + READY_TIMEOUT)) name
  for name in "$@"; do
    until curl -sf -o /dev/null "$(management_url "$name")/ready"; do
      if ! live_pid "$name" > /dev/null; then
        echo "cluster.sh: node $name exited during start; last lines of $RUN_DIR/$name.log:" >&2
        tail -n 5 "$RUN_DIR/$name.log" >&2
        forget_node "$name"
        exit 1
      fi
      (( SECONDS < deadline )) || die "node $name not ready after ${READY_TIMEOUT}s (log: $RUN_DIR/$name.log)"
      sleep 1
    done
    printf '  %-12s ready   pid %-7s %s\n' "$name" "$(live_pid "$name")" "$(management_url "$name")"
  done
}

stop_node() { # name; SIGTERM (graceful leave via coordinated shutdown), then SIGKILL after the deadline
  local name="$1" pid deadline
  if ! pid="$(live_pid "$name")"; then
    forget_node "$name"
    return 0
  fi
  kill -TERM "$pid"
  deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "cluster.sh: $name (pid $pid) did not stop within ${STOP_TIMEOUT}s; killing it" >&2
    kill -KILL "$pid"
  fi
  echo "  $name stopped (pid $pid)"
  forget_node "$name"
}

seed() { echo "akka://ToolCoach@127.0.0.1:$(cluster_port coach)"; }

highest() { # kind -> highest number in use, 0 if none
  local n=0 name
  for name in $(nodes); do
    [[ "$name" == "$1"-* ]] && (( ${name#"$1"-} > n )) && n=${name#"$1"-}
  done
  echo "$n"
}

count() { local name c=0; for name in $(nodes); do [[ "$name" == "$1"-* ]] && c=$((c + 1)); done; echo "$c"; }

require_running() { live_pid coach > /dev/null || die "no cluster running (run folder $RUN_DIR); start one with: $0 up"; }

number() { [[ "$2" =~ ^[0-9]+$ ]] || die "$1 needs a whole number, got '$2'"; echo "$2"; }

# --- commands --------------------------------------------------------------------------------------

cmd_up() {
  local athletes=2 tools=1 sizing=() plan
  while (( $# )); do
    case "$1" in
      --athletes) athletes="$(number --athletes "${2:-}")"; shift 2 ;;
      --tools) tools="$(number --tools "${2:-}")"; shift 2 ;;
      --model|--heap) sizing+=("$1" "${2:-}"); shift 2 ;;
      *) die "up: unknown option '$1' (use --athletes N, --tools M, --model DIR, --heap SIZE)" ;;
    esac
  done
  mkdir -p "$RUN_DIR"
  live_pid coach > /dev/null && die "a cluster is already running (run folder $RUN_DIR); use status, scale or down"
  # the plan stays in the run folder: scale and restart start nodes with the same heaps
  plan="$(heap_plan "${sizing[@]}")" || exit 1
  echo "$plan" > "$RUN_DIR/heaps"
  echo "Heaps (MiB): $(paste -sd ' ' <<< "$plan")"
  # nodes left from a cluster whose coach is gone (killed): the split-brain resolver downs them anyway; stop them
  # here, so a new node never takes the name (PID file) of a process that still runs
  for name in $(nodes); do
    if live_pid "$name" > /dev/null; then
      echo "Stopping $name, left from a cluster whose coach is gone"
      stop_node "$name"
    else
      forget_node "$name"
    fi
  done
  echo "Starting coach (run folder $RUN_DIR)"
  start_node coach coach
  wait_ready coach
  echo "Starting $athletes athlete node(s) and $tools tool node(s)"
  local started=() i
  for ((i = 1; i <= athletes; i++)); do start_node "athlete-$i" athlete --seed "$(seed)"; started+=("athlete-$i"); done
  for ((i = 1; i <= tools; i++)); do start_node "tool-$i" tool --seed "$(seed)"; started+=("tool-$i"); done
  (( ${#started[@]} == 0 )) || wait_ready "${started[@]}"
  echo "Cluster ready. Management: $(management_url coach)  (status: $0 status, stop: $0 down)"
}

cmd_status() {
  require_running
  echo "Members (as seen by the coach at $(management_url coach)):"
  curl -sf "$(management_url coach)/cluster/members" \
    | jq -r '.members | sort_by(.node)[] | "  \(.node)  \(.status)  \(.roles | map(select(startswith("dc-") | not)) | join(","))"' \
    || die "the coach's management endpoint does not answer"
  echo "Processes (run folder $RUN_DIR):"
  local name pid
  for name in $(nodes); do
    if pid="$(live_pid "$name")"; then
      printf '  %-12s pid %-7s %s\n' "$name" "$pid" "$(management_url "$name")"
    else
      printf '  %-12s not running (log: %s)\n' "$name" "$RUN_DIR/$name.log"
    fi
  done
}

cmd_scale() {
  [[ "${1:-}" == "--athletes" ]] || die "scale: use scale --athletes K"
  local target; target="$(number --athletes "${2:-}")"
  require_running
  local current; current="$(count athlete)"
  if (( target > current )); then
    local started=() next
    next="$(highest athlete)"
    for ((; current < target; current++)); do
      next=$((next + 1))
      start_node "athlete-$next" athlete --seed "$(seed)"
      started+=("athlete-$next")
    done
    wait_ready "${started[@]}"
  fi
  while (( current > target )); do
    stop_node "athlete-$(highest athlete)"
    current=$((current - 1))
  done
  echo "Athlete nodes: $target"
}

cmd_train() { # submits a job to the coach (POST /jobs), then follows it (GET /jobs) unless --detach
  local detach=0 body='{}' key
  require_running
  while (( $# )); do
    case "$1" in
      --detach) detach=1; shift ;;
      --task|--name|--algorithm|--mode|--tool-suite|--reward) # a reward server's URL must be under the coach's endpoints
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        key="${1#--}"; key="${key//-/_}"
        body="$(jq -c --arg k "$key" --arg v "$2" '. + {($k): $v}' <<< "$body")"; shift 2 ;;
      --dataset|--test-dataset) # the coach node reads them from its data folder only: sent as paths relative to it
        [[ -r "${2:-}" ]] || die "train: $1 needs a readable file (JSON Lines, xLAM or ShareGPT)"
        key="$(realpath "$2")"
        [[ "$key" == "$DATA_DIR"/* ]] || die "train: $1 must be a file inside the coach's data folder $DATA_DIR"
        body="$(jq -c --arg k "$(tr - _ <<< "${1#--}")" --arg v "${key#"$DATA_DIR"/}" '. + {($k): $v}' <<< "$body")"; shift 2 ;;
      --model|--adapter) # a folder inside the coach's models folder: sent as a path relative to it
        [[ -d "${2:-}" ]] || die "train: $1 needs a folder"
        key="$(realpath "$2")"
        [[ "$key" == "$MODELS_DIR"/* ]] || die "train: $1 must be a folder inside the coach's models folder $MODELS_DIR (TOOLCOACH_MODELS_DIR)"
        body="$(jq -c --arg k "${1#--}" --arg v "${key#"$MODELS_DIR"/}" '. + {($k): $v}' <<< "$body")"; shift 2 ;;
      --spec) # the whole job as the POST /jobs body; the flags given replace its values
        [[ -r "${2:-}" ]] || die "train: --spec needs a readable JSON file"
        body="$(jq -c --slurpfile s "$2" 'if ($s[0] | type) == "object" then $s[0] + . else error("not an object") end' <<< "$body" 2> /dev/null)" \
          || die "train: $2 is not a JSON object (a job spec)"; shift 2 ;;
      --recipe)
        [[ -r "${2:-}" ]] || die "train: --recipe needs a readable JSON file"
        body="$(jq -c --slurpfile r "$2" '. + {recipe: $r[0]}' <<< "$body")" || die "train: $2 is not JSON"; shift 2 ;;
      --steps|--warmup-traces|--seed|--checkpoint-every|--athletes)
        key="${1#--}"; key="${key//-/_}"
        body="$(jq -c --arg k "$key" --argjson v "$(number "$1" "${2:-}")" '. + {($k): $v}' <<< "$body")"; shift 2 ;;
      --tool-retrieval) # tool retrieval and the catalogue: the job request's tool_retrieval object
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        body="$(jq -c --arg v "$2" '.tool_retrieval.mode = $v' <<< "$body")"; shift 2 ;;
      --retrieval-k)
        body="$(jq -c --argjson v "$(number "$1" "${2:-}")" '.tool_retrieval.k = $v' <<< "$body")"; shift 2 ;;
      --retrieval-url|--retrieval-model)
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        key="${1#--retrieval-}"
        body="$(jq -c --arg k "$key" --arg v "$2" '.tool_retrieval.model[$k] = $v' <<< "$body")"; shift 2 ;;
      --distractor-suites)
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        body="$(jq -c --arg v "$2" '.tool_retrieval.distractor_suites = ($v | split(","))' <<< "$body")"; shift 2 ;;
      --distractor-schemas) # files inside the coach's data folder, sent relative to it
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        local files=() f
        IFS=',' read -r -a files <<< "$2"
        for f in "${files[@]}"; do
          [[ -r "$f" ]] || die "train: --distractor-schemas: $f is not readable"
          key="$(realpath "$f")"
          [[ "$key" == "$DATA_DIR"/* ]] || die "train: --distractor-schemas: $f is not inside the coach's data folder $DATA_DIR"
          body="$(jq -c --arg v "${key#"$DATA_DIR"/}" '.tool_retrieval.distractor_schemas += [$v]' <<< "$body")"
        done
        shift 2 ;;
      --judge-url|--judge-model|--judge-mode) # an LLM judge as the reward: the job request's judge object
        [[ $# -ge 2 ]] || die "train: $1 needs a value"
        key="${1#--judge-}"
        if [[ "$key" == mode ]]; then body="$(jq -c --arg v "$2" '.judge.mode = $v' <<< "$body")"
        else body="$(jq -c --arg k "$key" --arg v "$2" '.judge.endpoint[$k] = $v' <<< "$body")"; fi
        shift 2 ;;
      *) die "train: unknown option '$1' (use [--spec FILE] --task T [--name N] [--algorithm A] [--mode async|sync] [--steps S] [--warmup-traces W] [--seed X] [--checkpoint-every K] [--recipe FILE] [--dataset FILE] [--test-dataset FILE] [--model DIR] [--adapter DIR] [--reward NAME|URL] [--tool-suite S] [--tool-retrieval M] [--retrieval-k K] [--retrieval-url U --retrieval-model ID] [--distractor-suites S,..] [--distractor-schemas F,..] [--judge-url U --judge-model ID] [--judge-mode ranking|relative] [--detach])" ;;
    esac
  done
  local url answer code auth=()
  url="$(management_url coach)/jobs"
  [[ -n "${TOOLCOACH_JOBS_TOKEN:-}" ]] && auth=(-H "Authorization: Bearer $TOOLCOACH_JOBS_TOKEN")
  answer="$(curl -s -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' "${auth[@]}" -d "$body" "$url")" \
    || die "the coach's management endpoint $url does not answer"
  code="$(tail -n 1 <<< "$answer")"
  answer="$(sed '$d' <<< "$answer")"
  [[ "$code" == 202 ]] || die "the coach refused the job ($code): $(jq -r '.error // .' <<< "$answer")"
  local name; name="$(jq -r .name <<< "$answer")"
  echo "Job $name accepted; progress: $url"
  (( detach )) && return 0
  local status state line last=""
  while :; do
    status="$(curl -sf "$url")" || die "the coach stopped answering at $url (the job resumes when the coach starts again)"
    state="$(jq -r .state <<< "$status")"
    line="$(jq -r '"\(.phase)" + (if .last_step then "  step \(.last_step.step)/\(.total_steps) v\(.last_step.version) reward \(.last_step.mean_reward * 1000 | round / 1000) acc \(.last_step.accuracy * 100 | round)% \(.last_step.rollouts_per_sec * 10 | round / 10) rollouts/s" else "" end)' <<< "$status")"
    [[ "$line" != "$last" ]] && { echo "  $line"; last="$line"; }
    [[ "$state" == running ]] || break
    sleep 2
  done
  jq -r '.evaluations | to_entries[] | "  \(.key): accuracy \(.value.accuracy * 1000 | round / 10)%" + (if .value.accuracy_ci95 then " (95% CI \(.value.accuracy_ci95[0] * 1000 | round / 10)-\(.value.accuracy_ci95[1] * 1000 | round / 10)%)" else "" end) + ", mean reward \(.value.mean_reward * 1000 | round / 1000)" + (if .value.training_queries then ", training queries pass@\(.value.training_queries.k) \(.value.training_queries.pass_at_k * 1000 | round / 10)%" else "" end)' <<< "$status"
  [[ "$state" == finished ]] || die "job $name $state: $(jq -r .error <<< "$status")"
  echo "Job $name finished; run folder $RUNS_DIR/$name"
}

cmd_signal() { # NAME SIGNAL: to the node's verified PID only
  local name="${1:-}" signal="${2:-}" pid
  [[ "$signal" =~ ^(KILL|STOP|CONT|TERM)$ ]] || die "signal: use signal NAME KILL|STOP|CONT|TERM"
  pid="$(live_pid "$name")" || die "signal: no running node named '$name' in $RUN_DIR"
  kill -s "$signal" "$pid"
  echo "  $name (pid $pid): SIG$signal"
}

cmd_restart() { # NAME: an athlete-N or tool-N node, stopped gracefully and started again under the same name
  local name="${1:-}"
  [[ "$name" =~ ^(athlete|tool)-[0-9]+$ ]] || die "restart: use restart athlete-N or restart tool-N"
  require_running
  [[ -f "$RUN_DIR/$name.pid" ]] || die "restart: no node named '$name' in $RUN_DIR"
  stop_node "$name"
  start_node "$name" "${name%-*}" --seed "$(seed)"
  wait_ready "$name"
}

cmd_down() {
  [[ -d "$RUN_DIR" ]] || { echo "Nothing to stop (no run folder $RUN_DIR)"; return 0; }
  local name
  for name in $(nodes); do [[ "$name" == coach ]] || stop_node "$name"; done
  [[ -f "$RUN_DIR/coach.pid" ]] && stop_node coach
  echo "Cluster stopped"
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  heap) shift; heap_plan "$@" | awk '{ print $1 " " $2 "m" }' ;;
  status) shift; cmd_status "$@" ;;
  scale) shift; cmd_scale "$@" ;;
  train) shift; cmd_train "$@" ;;
  signal) shift; cmd_signal "$@" ;;
  restart) shift; cmd_restart "$@" ;;
  down) shift; cmd_down "$@" ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
