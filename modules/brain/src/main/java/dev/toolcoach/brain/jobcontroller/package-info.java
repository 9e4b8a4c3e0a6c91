/**
 * The coach node's job controller and dashboard.
 *
 * <p><b>JobController</b> {@code JobController} (an Akka extension created with its management route {@code JobRoutes},
 * on nodes with the coach and learner roles and {@code toolcoach.jobs.controller = on}; the embedded node turns it off)
 * runs one submitted job at a time on its own system.
 * <ul>
 *   <li>{@code POST /jobs} (a {@code TrainingJobSpec}'s JSON form, as {@code train --spec} takes) answers 202 with the
 *       job's status, 400 for a bad request (unknown task or algorithm, bad values, a path out of the node's folders),
 *       409 while a job runs or when its run folder is locked by another job.</li>
 *   <li>{@code GET /jobs} shows the current or last job (phase, last step, evaluations, error).</li>
 *   <li>{@code POST /jobs/{name}/cancel} cancels the running job of that name (202; 404 when none runs): its thread is
 *       interrupted, which ends a training run at once and any other phase at the next phase, and the job ends
 *       {@code cancelled}.</li>
 *   <li>Whatever a job throws (an {@code Error} too) it ends {@code failed} with the reason, and the controller takes
 *       the next job.</li>
 *   <li>Before a job starts its request is written to {@code <run>/job.json} as {@code running}; a coach node that
 *       starts finds such a record and resumes the job from its last checkpoint ({@code cluster.sh train} submits and
 *       follows; after a coach node is killed, the athlete and tool nodes are downed by the split-brain resolver, and
 *       {@code cluster.sh up} brings the cluster and the job back: it stops the nodes left behind first, and starts the
 *       coach with {@code toolcoach.jobs.runs-dir} set to the absolute runs folder, {@code $TOOLCOACH_RUNS_DIR} or
 *       {@code runs/} of the repository, where {@code cluster.sh train} jobs go, so the job is found whatever the
 *       working directory). A resume counts in {@code job.json} ({@code resumes}, {@code step_at_resume}): a job whose
 *       node went down with it {@code MAX_RESUMES_WITHOUT_PROGRESS} (3) times after a resume with no new learner step
 *       between (a poison that takes its node down on every start) is marked {@code failed} with that reason instead of
 *       resumed again.</li>
 *   <li>{@code JobStateMetrics}: {@code toolcoach_job_state{job,state}} on {@code /metrics} (1 for the current or last
 *       job's state).</li>
 * </ul>
 *
 * <p><b>Who may submit (POST /jobs, cancel; the management port)</b>
 * <ul>
 *   <li>Bound to {@code akka.management.http.hostname}/{@code bind-hostname}, default 127.0.0.1. Refused (403) while
 *       {@code akka.management.http.route-providers-read-only} is on (Akka's default; {@code deploy/conf/coach.conf}
 *       turns it off). Credentials as every state-changing management route
 *       ({@code cluster.management.ManagementWrites}).</li>
 *   <li>Body 1 MiB ({@code toolcoach.jobs.max-request-body}, 413), nesting 64.</li>
 *   <li>{@code runs_dir}/{@code data_dir} are the node's ({@code toolcoach.jobs.runs-dir},
 *       {@code toolcoach.jobs.data-dir}) and a request naming them is refused; {@code dataset} and
 *       {@code tool_retrieval.distractor_schemas} are relative to the data folder, {@code model} to the models folder
 *       ({@code toolcoach.jobs.models-dir}) (absolute, {@code ..} or a link out of it: 400 naming the field,
 *       {@code TrainingJobSpec.fromNetwork}).</li>
 *   <li>A judge or tool selector is named by URL only, never a local folder to load, and only a URL at or below an
 *       entry of {@code toolcoach.jobs.endpoints} (same scheme, host and port; no user, query, fragment or {@code ..};
 *       400 naming {@code judge.endpoint.url} or {@code tool_retrieval.model.url} otherwise), called with that entry's
 *       {@code api-key} and no other ({@code endpoint.OutboundEndpoints}: there is no ambient key, so a job cannot make
 *       the node send its credentials to a listener of its own).</li>
 *   <li>The run name is a plain folder name; errors give a dataset's line numbers and reasons, never its lines. The
 *       routes name the node's folders by role in what they answer ({@code <runs>}, {@code <data>}, {@code <models>}),
 *       never by absolute path.</li>
 * </ul>
 *
 * <p><b>Dashboard</b> {@code /dashboard} ({@code DashboardRoutes}): a live page of the job, polling
 * {@code /dashboard/data} ({@code DashboardData}: the job's status and its step lines from the job controller, the
 * coach's {@code CoachProgress} and the learner's {@code LearnerStatus} from
 * {@code CoachMetrics}/{@code LearnerMetrics} (the last seen kept once their actors stop), the cluster's members with
 * the athletes the Receptionist lists on each, tool calls summed over the step lines). Curves are drawn by uPlot,
 * served with the page, its script and style from the jar ({@code /dashboard/uPlot.iife.min.js} from the webjar): no
 * outside network. The page sets every value as text; its CSP allows only its own origin.
 */
package dev.toolcoach.brain.jobcontroller;
