/**
 * Code actions ({@code ActionFormat.CODE_ACT}, {@code agent.CodeActCodec}): a reply's {@code <code>} program is one
 * call of the {@code python} tool. {@code CodeActEnvironment.forFormat(format, tools)} wraps the environment wherever
 * an {@code AgentLoop} is built (athletes' {@code RolloutRunner}, {@code TaskEvaluation}, {@code Distiller},
 * {@code OracleRollout}, {@code SyncGrpo}): {@code python} calls run in the JVM's {@code PythonSandbox}, every other
 * call goes to the tools unchanged; each function the program calls goes through that environment like any call. Its
 * interpreter and {@code SandboxLimits} are a node's {@code toolcoach.code-act} ({@code cluster.node.CodeActSettings},
 * part of {@code NodeSettings}; {@code NodeLauncher} hands them to {@code CodeActEnvironment.configure}, and the
 * sandbox is made on first use).
 *
 * <p><b>The sandbox</b> It is made of standard tools rather than our own:
 * <ul>
 *   <li>{@code prlimit}: CPU seconds, then SIGKILL a second later; address space; file size; process count.</li>
 *   <li>{@code setpriv} to a user of its own per running slot when the JVM is root (uid 2,000,000 + slot, so
 *       RLIMIT_NPROC bounds one program; as another user the limit is set above that user's current task count).</li>
 *   <li>{@code bwrap --unshare-all --unshare-user --disable-userns --die-with-parent --as-pid-1}, started with an empty
 *       environment ({@code ProcessBuilder.environment().clear()}: bubblewrap's environment was readable inside as
 *       {@code /proc/1/environ}), with only what the interpreter needs of {@code /usr} read-only (the interpreter, its
 *       standard library as {@code sysconfig} names it, the folders of the libraries it and the loader link as
 *       {@code ldd} lists them: no other program, no host configuration kept under {@code /usr}) and one writable
 *       place: {@code /sandbox}, the working directory, a tmpfs of {@code scratch-size} with {@code /tmp} a link into
 *       it, so everything the program writes is capped in all ({@code /} and {@code /dev} are remounted
 *       read-only).</li>
 *   <li>{@code PythonSandbox.create} checks that {@code bwrap --help} offers {@code --disable-userns} (0.8.0) and
 *       compiles, with libseccomp's Python binding in the interpreter, a seccomp filter that bubblewrap loads
 *       ({@code --seccomp}, on a descriptor a {@code sh} opens for it): {@code shmget}, {@code msgget},
 *       {@code mq_open}, {@code memfd_create} and {@code memfd_secret} get EPERM (each makes memory that {@code --as}
 *       does not count once filled: a SysV segment held 900 MiB past a 512 MiB cap), another architecture's calls are
 *       killed.</li>
 *   <li>The wall time is enforced by killing the process tree.</li>
 * </ul>
 *
 * <p>Two scripts from the jar, bound read-only at {@code /harness}: {@code harness.py} is the sandbox's PID 1, made
 * undumpable ({@code prctl(PR_SET_DUMPABLE, 0)}, so the program, the same user, cannot open its {@code /proc/1/fd} or
 * trace it), and the only writer of the protocol on bubblewrap's stdin/stdout; it runs the program as a child,
 * {@code runner.py}, whose stdout and stderr are files in {@code /sandbox} and whose channel to the harness is a pipe
 * pair its own children do not inherit. Each offered tool is a function writing one JSON line per call on that channel;
 * the harness relays only calls of offered tools with object arguments (anything else ends the run), then sends one
 * final line with the program's result, exit status and its output read back capped (64 KiB). So printing, by any
 * means, cannot forge the protocol. The run's result (printed text and the last expression's value, or the error:
 * syntax error, the exception with the program's own lines, the limit hit) is the observation; {@code CodeRun} is kept
 * as the result's structured output.
 */
package dev.toolcoach.tools.codeact;
