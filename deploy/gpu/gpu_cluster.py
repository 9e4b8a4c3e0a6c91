"""gpu-check.sh's helpers that need HTTP and JSON (a GPU machine may have neither curl nor jq, but has Python):

  serve-request --port P [--timeout S]        waits for `coach-node serve` on 127.0.0.1:P, sends one chat completion,
                                              prints "serve-request: ..." (exit 0 when a reply came back)
  cluster --java J --classpath CP --device D --runs DIR --logs PREFIX --job JSON [--models DIR] [--timeout S]
                                              starts a coach, an athlete and a tool node on 127.0.0.1 (deploy/conf),
                                              the coach and the athlete on device D, each logging to PREFIX-<node>.log,
                                              the coach's models folder DIR (a job's "model" is a folder inside it),
                                              waits until each is ready, posts the job, follows it, stops every node
                                              it started; prints "cluster: ..." (exit 0 when the job finished)
Every request goes to 127.0.0.1 only."""
import argparse, json, os, signal, socket, subprocess, sys, time, urllib.error, urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, timeout=10):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.status, r.read().decode()


def wait_until(deadline, probe):
    while time.time() < deadline:
        try:
            if probe():
                return True
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(1)
    return False


def serve_request(a):
    base = f"http://127.0.0.1:{a.port}"
    deadline = time.time() + a.timeout
    if not wait_until(deadline, lambda: http("GET", base + "/v1/models")[0] == 200):
        print(f"serve-request: no answer on {base}/v1/models in {a.timeout} s")
        return 1
    model = json.loads(http("GET", base + "/v1/models")[1])["data"][0]["id"]  # the id the server serves under
    t = time.time()
    status, text = http("POST", base + "/v1/chat/completions", {"model": model, "max_tokens": 24, "temperature": 0,
                        "messages": [{"role": "user", "content": "What is 12 times 7?"}]}, timeout=max(5, deadline - time.time()))
    reply = json.loads(text)["choices"][0]["message"]
    print(f"serve-request: HTTP {status} in {time.time() - t:.2f} s: {json.dumps(reply)[:300]}")
    return 0 if status == 200 else 1


def cluster(a):
    os.makedirs(a.runs, exist_ok=True)
    data = os.path.join(a.runs, "data")
    os.makedirs(data, exist_ok=True)
    nodes, procs = {}, []
    coach_port = free_port()
    seed = f"akka://ToolCoach@127.0.0.1:{coach_port}"
    coach_jvm = ["-Xmx6g", f"-Dtoolcoach.jobs.runs-dir={a.runs}", f"-Dtoolcoach.jobs.data-dir={data}"]
    if a.models:
        coach_jvm.append(f"-Dtoolcoach.jobs.models-dir={os.path.abspath(a.models)}")
    plan = [("coach", "dev.toolcoach.coachnode.CoachNodeMain", coach_port, coach_jvm, ["--device", a.device]),
            ("athlete", "dev.toolcoach.athletenode.AthleteNodeMain", free_port(), ["-Xmx2g"], ["--device", a.device, "--seed", seed]),
            ("tool", "dev.toolcoach.toolnode.ToolNodeMain", free_port(), ["-Xmx1g"], ["--seed", seed])]
    t0 = time.time()
    deadline = t0 + a.timeout
    try:
        # all at once: the athlete and the tool node keep trying to join the coach (the seed) until it is up
        for name, main, port, jvm, extra in plan:
            management = free_port()
            log = open(f"{a.logs}-{name}.log", "w")
            cmd = [a.java, "-DDJL_OFFLINE=true", "-DOPT_OUT_TRACKING=true", *jvm, "-cp", a.classpath, main,
                   "--config", os.path.join(REPO, "deploy", "conf", f"{name}.conf"), "--port", str(port),
                   "--management-port", str(management), *extra]
            procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
            nodes[name] = f"http://127.0.0.1:{management}"
        for (name, *_), proc in zip(plan, procs):
            if not wait_until(deadline, lambda: proc.poll() is None and http("GET", nodes[name] + "/ready")[0] == 200):
                print(f"cluster: {name} node not ready after {time.time() - t0:.0f} s (exit {proc.poll()})")
                return 1
        print(f"cluster: coach, athlete and tool nodes ready in {time.time() - t0:.1f} s")
        status, text = http("POST", nodes["coach"] + "/jobs", json.loads(a.job))
        if status != 202:
            print(f"cluster: the coach refused the job ({status}): {text}")
            return 1
        t1 = time.time()
        job = {}
        while time.time() < deadline:
            job = json.loads(http("GET", nodes["coach"] + "/jobs")[1])
            if job.get("state") != "running":
                break
            time.sleep(2)
        last = job.get("last_step") or {}
        evals = {k: round(v.get("accuracy", 0), 3) for k, v in (job.get("evaluations") or {}).items()}
        print(f"cluster: job {job.get('state', 'unknown')} after {time.time() - t1:.1f} s (phase {job.get('phase')}, last step "
              f"{last.get('step')} of {job.get('total_steps')}, rollouts/s {last.get('rollouts_per_sec')}), accuracy {evals}"
              + (f"; error {job.get('error')}" if job.get("error") else ""))
        return 0 if job.get("state") == "finished" else 1
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve-request")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--timeout", type=float, default=120)
    c = sub.add_parser("cluster")
    for opt in ("--java", "--classpath", "--device", "--runs", "--logs", "--job"):
        c.add_argument(opt, required=True)
    c.add_argument("--models")
    c.add_argument("--timeout", type=float, default=220)
    a = ap.parse_args()
    sys.exit(serve_request(a) if a.cmd == "serve-request" else cluster(a))


if __name__ == "__main__":
    main()
