"use strict";
// Polls /dashboard/data and redraws. Names from the cluster (job, tools, nodes) are set as text, never as markup.
const POLL_MS = 2000;
const charts = {};

function num(v) {
  const n = typeof v === "number" ? v : Number(v);   // Jackson writes NaN as "NaN"
  return Number.isFinite(n) ? n : null;
}
function fixed(v, digits) { const n = num(v); return n === null ? "–" : n.toFixed(digits); }
function setText(id, text) { document.getElementById(id).textContent = String(text); }

function chart(id, series, data) {
  if (!charts[id]) {
    charts[id] = new uPlot({
      width: 420, height: 220,
      scales: { x: { time: false } },
      axes: [{ label: "step" }, {}],
      series: [{ label: "step" }].concat(series),
    }, data, document.getElementById(id));
  } else {
    charts[id].setData(data);
  }
}

function fillTable(id, rows) {
  const table = document.getElementById(id);
  const body = table.querySelector("tbody");
  body.replaceChildren();
  if (rows.length === 0) {
    const td = document.createElement("td");
    td.colSpan = table.querySelectorAll("th").length;
    td.className = "empty";
    td.textContent = table.dataset.empty;
    body.appendChild(document.createElement("tr")).appendChild(td);
  }
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const cell of row) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      if (typeof cell === "number" || /^[0-9.%–-]+$/.test(String(cell))) td.className = "n";
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function render(d) {
  const job = d.job;
  if (job) {
    setText("job-name", "job " + job.name + " · task " + job.task);
    setText("job-state", job.state);
    document.getElementById("job-state").className = "badge " + job.state;
    setText("job-phase", "phase: " + job.phase);
  }
  const steps = d.steps;
  const last = steps.length ? steps[steps.length - 1] : null;
  setText("tile-step", last ? last.step + (job ? " / " + job.total_steps : "") : "–");
  setText("tile-version", d.learner ? d.learner.policyVersion : (last ? last.version : "–"));
  // of every rollout sampled for the step where recorded: the kept groups' figures leave out the groups dynamic sampling
  // dropped (all right, mostly), so they stay flat while the policy learns
  const sampled = s => num(s.sampled_accuracy) !== null;
  setText("tile-reward", last ? fixed(sampled(last) ? last.sampled_mean_reward : last.mean_reward, 3) : "–");
  setText("tile-accuracy", last ? fixed(100 * num(sampled(last) ? last.sampled_accuracy : last.accuracy), 0) + "%" : "–");
  setText("tile-rate", last ? fixed(last.rollouts_per_sec, 2) : "–");
  setText("tile-lag", d.max_policy_lag);
  const c = d.coach;
  setText("tile-groups-open", c ? c.groupsOpen : "–");
  setText("tile-rollouts-in-flight", c ? c.rolloutsInFlight : "–");
  setText("tile-dropped", c ? Object.values(c.groupsDropped).reduce((a, b) => a + b, 0) : "–");
  setText("tile-redispatched", c ? c.rolloutsRedispatched : "–");

  const x = steps.map(s => s.step);
  chart("chart-reward", [
    { label: "mean reward", stroke: "#1565c0", width: 2 },
    { label: "accuracy", stroke: "#2e7d32", width: 2 },
    { label: "accuracy of kept groups", stroke: "#81c784", width: 1 },
    { label: "share of groups kept", stroke: "#9e9e9e", width: 1 },
  ], [x, steps.map(s => num(sampled(s) ? s.sampled_mean_reward : s.mean_reward)),
      steps.map(s => num(sampled(s) ? s.sampled_accuracy : s.accuracy)), steps.map(s => num(s.accuracy)),
      steps.map(s => num(s.informative_fraction))]);
  chart("chart-rate", [{ label: "rollouts/s", stroke: "#6a1b9a", width: 2 }], [x, steps.map(s => num(s.rollouts_per_sec))]);
  chart("chart-lag", [
    { label: "mean lag", stroke: "#ef6c00", width: 2 },
    { label: "max lag", stroke: "#c62828", width: 1 },
  ], [x, steps.map(s => num(s.mean_policy_lag)), steps.map(s => num(s.max_policy_lag))]);

  fillTable("nodes", d.nodes.map(n => [n.address, n.roles.join(", "), n.status, n.athletes]));
  fillTable("tools", Object.entries(d.tools).map(([name, t]) => [name, t.calls, t.failed, fixed(t.mean_latency_millis, 1), fixed(t.mean_cpu_millis, 1)]));
  fillTable("dropped", c ? Object.entries(c.groupsDropped).map(([reason, n]) => [reason.toLowerCase(), n]) : []);
  fillTable("evaluations", job ? Object.entries(job.evaluations).map(([name, e]) =>
    [name, fixed(100 * num(e.accuracy), 1) + "%", e.examples, fixed(e.mean_reward, 3)]) : []);
  setText("updated", "updated " + new Date().toLocaleTimeString());
  setText("error", "");
}

async function poll() {
  try {
    const reply = await fetch("/dashboard/data", { cache: "no-store" });
    if (!reply.ok) throw new Error("the node answered " + reply.status);
    render(await reply.json());
  } catch (e) {
    setText("error", "cannot read /dashboard/data: " + e.message);
  } finally {
    setTimeout(poll, POLL_MS);
  }
}
poll();
