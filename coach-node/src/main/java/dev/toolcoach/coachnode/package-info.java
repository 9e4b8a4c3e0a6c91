/**
 * The {@code coach-node} program: a picocli command with subcommands, and the home of every command of the project
 * (model, tasks and brain carry no picocli; cluster keeps the nodes' shared run command). {@code CoachNodeMain} is a
 * thin subclass of {@code NodeRunCommand}: {@code run} (the default when none is given) starts the node (roles
 * {@code coach}, {@code learner}); each job is one more class in its {@code subcommands}. {@code CoachNodeMain.main}
 * sets {@code DJL_OFFLINE}/{@code OPT_OUT_TRACKING} and selects {@code coach-node-logback.xml} (all logs on stderr)
 * before anything loads, so stdout carries only results; {@code coach-node-logback.xml} keeps DJL's GPU probe warning
 * off the console ({@code LibraryNoiseFilter}), and writes everything to {@code TOOLCOACH_LOG_FILE} when set.
 * {@code DeviceOption} is the {@code --device}/{@code --precision} mixin, checked while the command line is parsed
 * ({@code value()}). Bad input gives one line {@code NAME: problem} on stderr and a non-zero exit (serve: 2 bad input,
 * 3 cannot bind).
 *
 * <p><b>Subcommands</b>
 * <ul>
 *   <li>{@code run} ({@code CoachNodeMain.Run}): start the node, form or join the cluster.</li>
 *   <li>{@code generate} ({@code GenerateCommand}): text from a llama2.c {@code .bin} or HF folder; llama2.c
 *       {@code run} conventions.</li>
 *   <li>{@code serve} ({@code ServeCommand}): {@code --model --tokenizer --adapter --host 127.0.0.1 --port 8000
 *       --max-batch 8 --action-format --api-key K}: a {@code LocalPolicy} behind {@code OpenAiServer} +
 *       {@code GeneratorBackend} in the model's action format ({@code NativeActionFormat} unless named); prints
 *       {@code serving ID at URL (tool calls: FORMAT)}, stops on SIGTERM/Ctrl-C; its limits and credentials:
 *       {@code dev.toolcoach.openai}.</li>
 *   <li>{@code bfcl-eval} ({@code BfclEvalCommand}): BFCL AST check of predictions read in {@code --action-format} (or
 *       {@code --model}'s native format; default Tool-N1), or of answers {@code --model} [{@code --adapter}] generates
 *       here ({@code BfclAnswers}: the serve path's {@code GeneratorBackend} over a {@code LocalPolicy}, greedy,
 *       batched; Java/JavaScript functions offered as {@code SourceLanguage.forPrompt} writes them), per category of
 *       {@code --data}; every file loaded before any model, one that loads no question an input error; JSON
 *       summary.</li>
 *   <li>{@code generate-tasks} ({@code GenerateTasksCommand}): Zero-Learn query generation from tool specs.</li>
 *   <li>{@code distill} ({@code DistillCommand}): {@code Brain.distill}: teacher ({@code --teacher-url},
 *       {@code --teacher-model DIR} served on 127.0.0.1 like {@code serve} in its own native format, or
 *       {@code --oracle}) traces, written in the student's action format ({@code --action-format}, default the
 *       student's native one) → cache → filter → SFT of {@code --student DIR} into
 *       {@code <work-dir>/distilled}.</li>
 *   <li>{@code train} ({@code TrainCommand}): the main job, embedded: {@code TaskTrainingJob}
 *       ({@code dev.toolcoach.brain.taskjob}); progress on stderr, final table on stdout; {@code ToolChoiceOptions}
 *       ({@code --tool-retrieval}, {@code --retrieval-k}, {@code --retrieval-url/-model},
 *       {@code --distractor-suites/-schemas}) and {@code JudgeOptions} ({@code --judge-url/-model/-mode}).</li>
 *   <li>{@code eval} ({@code EvalCommand}): a saved adapter on a task's test split (base model and recipe from its run
 *       folder), {@code ToolChoiceOptions} as {@code train}; JSON.</li>
 *   <li>{@code merge} ({@code MergeCommand}): {@code --model DIR --adapter DIR --out DIR}: the adapter folded into the
 *       base's weights ({@code model.lora.AdapterMerge}, W + α/r·BA on the host) as a plain Hugging Face folder any
 *       runtime loads without PEFT (tokenizer and templates copied); an adapter that does not fit the model, or an
 *       existing {@code --out}, is one line and exit 2.</li>
 *   <li>{@code render} ({@code RenderCommand}): {@code --model DIR} or {@code --template FILE [--tokens JSON] [--bos
 *       --eos]}, {@code --conversation FILE [--date yyyy-MM-dd]}: prints exactly the prompt text
 *       ({@code dev.toolcoach.chat}).</li>
 *   <li>{@code traces} ({@code TracesCommand}): {@code show RUN [--trace ID] [--step N]}: traces turn by turn
 *       ({@code TracePrinter}) or a list; {@code html RUN [--out FILE]}: the offline viewer ({@code TraceHtml}), token
 *       texts from the run's model's tokenizer.</li>
 *   <li>{@code skills} ({@code SkillsCommand}): {@code mine} (traces → validated composites in a skill folder, JSON
 *       report with every rejection's reason), {@code list} (provenance), {@code approve NAME}, {@code measure} (calls
 *       per solved task before/after); see {@code dev.toolcoach.tools.skills}.</li>
 *   <li>{@code tools} ({@code ToolsCommand}): TILE: {@code extract} tool-use records from traces, {@code report} them
 *       (table, PNG; {@code --by-run}: calls per solved task per run and evaluation), {@code preferences} (ADAPT
 *       status: competence, retirement flags).</li>
 *   <li>Also {@code checkpoints} ({@code CheckpointsCommand}: verifies a run's checkpoint files), {@code runs}
 *       ({@code RunsCommand}: {@code runs compare}, {@code taskjob.RunComparison}) and {@code doctor}
 *       ({@code DoctorCommand} over {@code TorchDoctor}, its checks).</li>
 * </ul>
 */
package dev.toolcoach.coachnode;
