/**
 * TILE's CRYSTALLIZE: composite tools mined from successful traces, validated by replay, kept in a skill library, and
 * served beside the suite whose tools they call.
 * <pre>
 * traces.jsonl (RunRecorder: each trace with its reward) ─► Crystallizer [tools.skills]
 *    SkillTrajectory (the successful traces' calls with results; success = answer and reward ≥ min,
 *      the key the tool-use records read)
 *    → SequenceMiner: contiguous runs of ok calls, min..max long, counted once per trajectory, ≥ min support,
 *      maximal
 *    → SkillValidator.reobserve: each occurrence's calls replayed in isolation on the suite's tools → whole results
 *      (the recorded ones were cut to the executor's and the agent's output caps, which can hide the structured value)
 *    → SkillAbstraction: data flow read off them (JSON Pointer into an earlier result, shared parameter, else a
 *      parameter with the tool's schema; "seen in step k's text" noted)
 *      → SkillDefinition (+ novelty: 1 − LCS similarity to known skills)
 *    → SkillValidator.validate: the CompositeTool replayed per occurrence in isolation (fresh trajectory id and
 *      plugin sessions, timeout); every step must give the recorded result after the same caps, else a counted
 *      Rejection with its reason
 *    → SkillLibrary &lt;dir&gt;/&lt;name&gt;/skill.json + SKILL.md, pending (or approved with --approve / measure)
 * approve: coach-node skills approve | POST /skills/{name}/approve ─► status approved in skill.json
 * ToolServerActor (tool node, toolcoach.tools.skills { dir, poll-interval })
 *    ── ApprovedSkills.refresh every poll ──► ToolExecutor.replaceSuite(suite + CompositeTools):
 *    same Receptionist key, GetToolSpecs lists the skill, so jobs that connect afterwards offer it; calls already
 *    accepted finish on the tools they started with
 * Agent → ExecuteToolCalls(skill) → ToolExecutor (schema check, deadline, output cap, metrics) → CompositeTool:
 *    each step on the suite's own tool in the caller's trajectory, its arguments checked against that tool's schema;
 *    the result is the last step's → Trace → tool-use records, rewards, ADAPT like any tool
 * </pre>
 *
 * <p>The same suite with its approved skills is what the embedded job ({@code TrainingRun} passes the folder to its
 * node), {@code Brain.builder().skills(dir)} (evaluation, distillation) and {@code eval --skills} use:
 * {@code BuiltinSuites.withSkills} is the one place a suite meets its skills. A composite joins the suite whose tools
 * it calls (a skill never spans suites, which keeps stateful tools in one trajectory on one server). A definition that
 * cannot be used is a {@code SkillFile.SkillFileException}: one line naming the file and the field path; a tool node
 * with one does not start ({@code HostedSuites}), a running one keeps what it registered and logs the line at each
 * poll. {@code coach-node skills}: {@code mine} (traces → validated composites in a skill folder, JSON report with
 * every rejection's reason), {@code list} (provenance), {@code approve NAME}, {@code measure} (calls per solved task
 * before/after, {@code brain.skills.SkillMeasurement}). {@code POST /skills/{name}/approve} on a coach node's
 * management port takes the job credentials (approving changes what athletes may call); the skill folder is the node's
 * {@code toolcoach.tools.skills.dir}; a name that is not a skill there: 404; a definition that cannot be used: 400
 * naming file and field.
 */
package dev.toolcoach.tools.skills;
