/**
 * The main job: {@code TaskTrainingJob} ({@code coach-node train --task T}, or {@code POST /jobs} on a coach node), its
 * request ({@code TrainingJobSpec}), dataset ({@code JobDataset}), reward choice ({@code RewardChoice}) and oracle-call
 * reward shaping ({@code CallShapedReward}).
 *
 * <p><b>The request</b> A training job is one {@code TrainingJobSpec}, the one place its settings live: {@code train}'s
 * flags set it through its builder, and its JSON form ({@code fromJson}: a {@code train --spec} file, the {@code POST
 * /jobs} body, {@code job.json}, which keeps it for a resume) is read into it directly, each value into its type there
 * (learn's {@code Algorithm} enum, {@code TrainingMode}, {@code Path}, {@code RewardChoice}, the recipe), its refusals
 * one line naming the field and the valid values. {@code TrainingJobSpec.trainingConfig()} is the one mapping of the
 * spec to the Brain's {@code TrainingConfig} (whose builder holds the one set of training defaults, which
 * {@code ScratchRecipe.defaults()} takes too), and {@code run.TrainingRun} maps that to the actors' {@code GroupPlan},
 * {@code CoachSettings}, {@code LearnerSettings} and {@code JobSpec}: from a flag to the actor using it, a setting
 * passes {@code TrainingJobSpec}, {@code TrainingConfig}, {@code TrainingRun.Spec} and the actor's settings record.
 * These are records built by {@code builder()} (one setter per field, each field's default documented once on the
 * record, checked when built) with {@code toBuilder()} to change a few; no code outside a record calls its positional
 * constructor. The synchronous mode ({@code TrainingMode.SYNC}, which {@code Options.trainingConfig()} maps) is a
 * policy lag of 0: one batch of groups is open at a time and its rollouts sample the newest adapter; an embedded job
 * runs it as one loop ({@code run.SyncGrpo}), a cluster job through the actors ({@code PolicyGate} holds rollouts for the
 * new adapter). {@code TrainingJobSpec.fromNetwork} reads a request from the network (paths relative to the
 * node's folders; see the job controller).
 *
 * <p><b>The phases</b>, one class each, run in order by {@code TaskTrainingJob.run} over the {@code JobRun} they
 * share (spec, task and split, Brain, evaluations, phase times, listener); each is skipped when an earlier session of a
 * resumed job left it done: {@code ModelPhase}, {@code EvaluationPhase} (before training), {@code WarmupPhase},
 * {@code EvaluationPhase} (after the warm-up), {@code TrainPhase} (training and saving the adapter),
 * {@code EvaluationPhase} (after training), {@code ReportPhase} (curve, verdict, times).
 * <ul>
 *   <li>A task-sized model from scratch ({@code brain.scratch}: a byte-level BPE vocabulary
 *       learned from the task's oracle texts, digits never merged, and a Qwen2 shape from the recipe; how the recipe's
 *       defaults were measured: docs/RECIPE.md).</li>
 *   <li>Evaluated greedily on the test split ({@code brain.eval.TaskEvaluation}; 20% of the task's examples, at most
 *       300: {@code eval.json} holds the count right, the accuracy and its 95% Wilson interval, {@code EvalRecord}, and
 *       the accuracy per oracle route, the tools an example's oracle calls in order,
 *       {@code EvaluationReport.byOracleRoute}, which the command prints as a second table,
 *       {@code OracleRouteTable}).</li>
 *   <li>Warmed up by {@code Brain.distill}: oracle traces of the first training queries → SFT of every weight → a
 *       new base folder {@code distilled/}. The oracle traces of the next {@code warmupHeldOut} queries are held out
 *       and scored after every pass by {@code LearnerCore.scoreSft}, without an update: held-out loss and the policy's
 *       next-token entropy per generated token, into {@code warmup.json}. With a {@code warmupPatience},
 *       {@code distill.LearnerSft} stops at the pass with the lowest held-out loss and restores its weights; with a
 *       {@code warmupTargetLoss} (by default 0.04, with 24 passes as the cap), after the first pass whose held-out loss
 *       reaches it; with {@code warmupTeacherErrors} the oracle teacher ({@code distill.OracleTeacher}) makes the
 *       oracle's calls but misreads its answer (two adjacent digits swapped) on that share of the queries and every
 *       demonstration is kept: the imperfect teacher GRPO should beat.</li>
 *   <li>Evaluated, trained by {@code Brain.train} (GRPO by default, on the task reward with partial credit for
 *       oracle-matching call arguments, {@code CallShapedReward}) on the training queries the warm-up did not see
 *       (generated tasks hold 2,500 questions; on the warm-up's own, memorised, queries groups carry no signal) and
 *       evaluated again.</li>
 *   <li>After the warm-up and after training the evaluation also samples the first training queries (as many as the
 *       steps sample, at most 64) 8 times each as training does ({@code EvalSession.passAtK}, {@code eval.PassAtK}: the
 *       unbiased pass@k estimator of Chen et al.) and records pass@8 and pass@1 under {@code training_queries}: the
 *       ceiling GRPO can sharpen towards; each evaluation phase loads the model once for both
 *       ({@code Brain.evaluation}).</li>
 *   <li>At the end {@code TrainingVerdict} says whether training raised test accuracy beyond its noise (the gain over
 *       the warm-up with a 95% interval) and, when not, what the run's own figures point to (few informative groups,
 *       low entropy, a narrow or empty pass@k ceiling, no step trained); the train command prints it under its table
 *       and the job logs it.</li>
 * </ul>
 *
 * <p>The recipe's {@code actionFormat} ({@code ScratchRecipe.Rollouts}: {@code tool-n1-compact} by default,
 * {@code tool-n1} or {@code code-act}, the formats a system prompt teaches whole) is the agent's format throughout: the
 * oracle texts the vocabulary is learned from, the warm-up, the evaluations and the rollouts. {@code steps 0} runs the
 * warm-up alone (the {@code Summary} then has no training result), which leaves {@code distilled/} to train as a user's
 * model.
 *
 * <p><b>A user's model, adapter, tools</b>
 * <ul>
 *   <li>With a model folder ({@code Options.model}: {@code train --model DIR}, or {@code model} in {@code POST /jobs},
 *       a folder under {@code toolcoach.jobs.models-dir}, {@code TrainingJobSpec.fromNetwork}) the job trains a user's
 *       checkpoint instead: the folder is checked before anything runs ({@code HfModelFolder.locate}: config, family,
 *       every weight's name, dtype and shape), no task-sized model is built, the warm-up is off unless
 *       {@code warmup_traces} asks for one, and the LoRA adapter trains over the folder as given; a folder with its own
 *       chat template acts in its family's native format ({@code NativeActionFormat}), one without in the recipe's;
 *       {@code config.json} records {@code model} and {@code action_format}.</li>
 *   <li>With an adapter ({@code Options.adapter}: {@code train --adapter DIR}, {@code adapter} in {@code POST /jobs}
 *       under the models folder) the job continues a PEFT adapter over the folder: the Brain loads it
 *       ({@code Brain.loadAdapter}: the first evaluation scores it), {@code TrainingRun.Spec .startAdapter} gives the
 *       learner its LoRA settings and weights as adapter version 1 ({@code LearnerCore.startFrom}), and
 *       {@code JobSpec.firstVersion} makes every athlete's first rollout wait for that version, never the bare
 *       base.</li>
 *   <li>A task whose examples bring their own tools ({@code FunctionCallingTask}: BFCL, xLAM, Glaive) needs such a
 *       folder and runs with no suite ({@code BrainBuilder.exampleToolsOnly}, {@code AgentTools.NONE}: each rollout is
 *       offered its example's functions and every call comes back {@code UNKNOWN_TOOL}; the embedded node starts
 *       without the tool role, {@code JobNode.allRolesBut}, and athletes connect to no suite); its reward reads the
 *       first reply's calls in the job's action format ({@code Task.reward(ActionFormat)}), so a native-format model is
 *       scored in its own format.</li>
 *   <li>The task's tools are its built-in suite ({@code BrainBuilder.tool}), or with {@code tool_suite}
 *       ({@code TrainingJobSpec.toolSuite}) a suite the cluster's tool nodes host, e.g. an MCP server
 *       ({@code BrainBuilder.hostedTool}): the coach node's own rollouts (oracle texts, warm-up, evaluations) then
 *       reach it through a {@code ClusterToolEnvironment} as the athletes do ({@code AgentTools.open}), so every call
 *       of the job goes to the same server. Embedded, {@code train --tools-conf FILE --tool-suite NAME}
 *       ({@code Options.toolsConfig}, never from a request: it may start processes) runs the job on a one-node cluster
 *       of the process that hosts the suite as the file's {@code toolcoach.tools} defines it ({@code classes},
 *       {@code mcp.servers}; {@code JobNode.allRoles}), the same path as on a cluster.</li>
 * </ul>
 *
 * <p><b>Datasets</b> {@code --dataset FILE} ({@code POST /jobs} {@code dataset}, {@code JobDataset}) reads a file in
 * the layout its content shows: ToolCoach's JSON Lines ({@code dataset.ExampleJsonl}: {@code id}, {@code messages} or
 * {@code query} with {@code system}, {@code tools}, {@code gold_answer}, {@code solution} or {@code gold_calls},
 * {@code gold} or {@code metadata}), an xLAM array or a ShareGPT/Glaive array ({@code tasks.datasets.XlamLoader},
 * {@code GlaiveLoader}). With a task named, JSON Lines replace its training split; without one the file is the task
 * ({@code JobDataset.asTask}, named after the file, {@code config.json} {@code task_source: dataset}, its test split
 * held out as any task's, or given by {@code --test-dataset}: {@code JobDataset.withTest} makes one task over both
 * files, the test file's calling examples numbered {@code test_xlam_N}, a shared id or a mix of calls and answers
 * refused; {@code TaskTrainingJob.taskSplit} is the one place a job's split is made, which {@code eval} uses too): a
 * {@code FunctionCallingTask} when its examples name gold calls over the tools they offer (JSON Lines converted by
 * {@code tasks.datasets.TaskExampleCalls}, checked as the xLAM and Glaive files are; a line's metadata kept for
 * rewards), else a task of answers. A record that is not an example, repeats an id, or whose gold calls do not fit its
 * tools is skipped and counted with where it is (logged once, listed under {@code dataset} in {@code config.json}); a
 * missing file, one in no known layout, or one without a usable example is refused before anything is written (the
 * train command: one line, exit 2; {@code POST /jobs}: 400).
 *
 * <p><b>Rewards</b> The reward is chosen by name ({@code --reward}, {@code reward}; {@code RewardChoice}, parsed where
 * it enters and recorded in {@code config.json}, which {@code eval} reads): {@code task} (the default: the task's own,
 * shaped by {@code CallShapedReward} in training), {@code call-match} (Tool-N1's, only for a function-calling task),
 * {@code exact}, {@code mentions}, {@code numeric[:TOL]} ({@code tasks.AnswerReward}, only for a task of answers), a
 * {@code rewards.RewardProvider} on the classpath ({@code ServiceLoader}), or the URL of a reward server
 * ({@code rewards.HttpReward}: a group's rollouts posted as JSON, one score each back; the URL must be under one of the
 * job's endpoints and is called with that endpoint's key: {@code toolcoach.jobs.endpoints} on a coach node,
 * {@code $TOOLCOACH_REWARD_API_KEY} for the command). A named reward is trained on as it is and is what evaluations
 * count; a step's accuracy is then the share of rollouts it gave 1. In training a reward that fails, times out or
 * answers a non-finite score drops the group, counted ({@code Reward.ofGroup} / {@code perTrace}); in an evaluation it
 * ends the job with its reason.
 *
 * <p><b>Comparing runs</b> {@code coach-node runs compare} reads several run folders through {@code RunComparison}: per
 * run the gain of training over the warm-up, over the runs the mean gain with its paired Student-t interval,
 * {@code RunComparison.byRoute} the accuracy per oracle route pooled over the runs, printed by
 * {@code OracleRouteTable.pooledLines}, and {@code run.RewardCurve.writeComparison} draws their learning curves in one
 * PNG.
 *
 * <p><b>What no job can run with</b> {@code TaskTrainingJob.check} refuses, before a job starts: LoRA
 * {@code alpha}/{@code dropout} that are not finite and in range ({@code LoraConfig}), a rank above the smaller side of
 * a matrix it adapts or an adapter whose training would not fit the machine's memory ({@code LoraConfig.checkFits}
 * against the model's or the scratch shape's config), a scratch shape without whole heads or whose training would not
 * fit it ({@code ScratchModel.Shape}; both ask {@code model.TrainingMemory}: 16 bytes a trained parameter, outside the
 * Java heap), a product of group counts that overflows, and rollouts longer than the model's context (they would index
 * past its positions in the learner).
 */
package dev.toolcoach.brain.taskjob;
