package dev.toolcoach.tools.codeact;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.UntrustedJson;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs untrusted Python programs (code actions) in a sandbox made of standard Linux tools rather than our own:
 * bubblewrap gives each program new user, PID, network, IPC and mount namespaces with nothing but {@code /usr}
 * (read-only) and one writable place, its working directory {@code /sandbox} (with {@code /tmp} inside it), a tmpfs
 * of {@link SandboxLimits#scratchBytes} in all, so there is no network, no file of the host to read or fill, and no
 * nested user namespace ({@code --disable-userns}); {@code prlimit} caps its CPU time, address space, file size and
 * process count; a seccomp filter (libseccomp's, {@link #MEMORY_OUTSIDE_LIMITS}) refuses the calls that make memory the
 * address-space cap does not count (SysV shared memory and message queues, POSIX message queues, memfd); the wall time
 * is enforced here by killing its process tree. bubblewrap itself starts with an empty
 * environment, so nothing of the JVM's (keys included) is readable inside, not even in {@code /proc/1/environ}. Run as
 * root, every program runs as a user of its own (one per running slot, never root), which makes the process limit per
 * program; run as another user, the limit counts that user's processes, so it is set above what the user runs already.
 *
 * <p>The program calls the offered tools as Python functions. It runs in a process of its own ({@code runner.py}),
 * whose calls go over a channel of its own to the sandbox's first process ({@code harness.py}, not dumpable, so the
 * program cannot reach its descriptors), which checks each one and alone writes the protocol lines this class reads
 * (on bubblewrap's standard input and output) and answers through the {@link Bridge} (the real tools, on a tool node
 * or in process). What the program prints, by any means, goes to its own files and comes back as text: it cannot
 * forge a protocol line.
 */
public final class PythonSandbox implements AutoCloseable {

    /** Answers one of the program's tool calls. */
    @FunctionalInterface
    public interface Bridge {
        CompletionStage<ToolResult> call(ToolCall call);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longest protocol line: a tool call's arguments, or the final message with the program's capped output. */
    private static final int MAX_PROTOCOL_LINE = 1 << 20;
    private static final int MAX_JSON_DEPTH = 64;
    /** What of stdout and stderr the trace keeps (the harness sends one byte more, to tell a cut). */
    private static final int READ_CAP = 64 << 10;
    /** Processes of a program's user besides the program's own: bubblewrap's monitor, the harness, the program. */
    private static final int SANDBOX_PROCESSES = 3;
    /** First user id of the per-slot users a root JVM runs programs as (far above any system or login user). */
    private static final int FIRST_SLOT_UID = 2_000_000;
    private static final int SIGXCPU_EXIT = 128 + 24;
    /**
     * System calls a program gets EPERM for: each makes memory that is not mapped into its address space while it is
     * filled (a SysV segment detached, a queue's messages, a memfd written to), so {@code --as} would not count it.
     */
    static final List<String> MEMORY_OUTSIDE_LIMITS = List.of("shmget", "msgget", "mq_open", "memfd_create", "memfd_secret");
    /** The file descriptor bubblewrap reads the seccomp filter from. */
    private static final int SECCOMP_FD = 3;
    private static final int SIGKILL_EXIT = 128 + 9;

    private final Path python;
    /** What of {@code /usr} the sandbox mounts, read-only: the interpreter, its standard library, the libraries it links. */
    private final List<Path> interpreterFiles;
    private final Path bwrap;
    private final Path prlimit;
    private final Path setpriv;
    /** The seccomp filter, compiled to BPF for this machine's architecture. */
    private final byte[] seccompFilter;
    private final SandboxLimits limits;
    private final String harness;
    private final String runner;
    private final boolean root;
    private final BlockingQueue<Integer> freeSlots;
    private final ExecutorService runners;
    private final ScheduledExecutorService clock;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();

    private PythonSandbox(Path python, List<Path> interpreterFiles, Path bwrap, Path prlimit, Path setpriv, byte[] seccompFilter,
                          SandboxLimits limits, boolean root) {
        this.python = python;
        this.seccompFilter = seccompFilter.clone();
        this.interpreterFiles = List.copyOf(interpreterFiles);
        this.bwrap = bwrap;
        this.prlimit = prlimit;
        this.setpriv = setpriv;
        this.limits = limits;
        this.root = root;
        this.harness = resource("harness.py");
        this.runner = resource("runner.py");
        this.freeSlots = new ArrayBlockingQueue<>(limits.maxRunning());
        for (int slot = 0; slot < limits.maxRunning(); slot++) freeSlots.add(slot);
        this.runners = Executors.newFixedThreadPool(limits.maxRunning(), daemon("code-action"));
        this.clock = Executors.newSingleThreadScheduledExecutor(daemon("code-action-clock"));
    }

    /**
     * A sandbox running {@code python} (an interpreter under {@code /usr}, of which the sandbox mounts the interpreter,
     * its standard library and the folders of the libraries it links, nothing else: no host configuration kept under
     * {@code /usr}, no other program).
     *
     * @throws IllegalStateException naming what this machine lacks (bubblewrap, prlimit, the interpreter, libseccomp's
     *                               Python binding)
     */
    public static PythonSandbox create(Path python, SandboxLimits limits) {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            throw new IllegalStateException("code actions run in a Linux sandbox (bubblewrap); this is "
                    + System.getProperty("os.name"));
        }
        Path interpreter;
        try {
            interpreter = python.toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException("the code-action interpreter " + python + " does not exist (install python3)");
        }
        if (!interpreter.startsWith("/usr/")) {
            throw new IllegalStateException("the code-action interpreter must be installed under /usr, the only tree "
                    + "the sandbox mounts; " + python + " is " + interpreter);
        }
        boolean root = "0".equals(String.valueOf(uidOfThisProcess()));
        Path bwrap = command("bwrap", "bubblewrap");
        checkDisablesUserNamespaces(bwrap);
        return new PythonSandbox(interpreter, interpreterFiles(interpreter), bwrap, command("prlimit", "util-linux"),
                root ? command("setpriv", "util-linux") : null, seccompFilter(interpreter), limits, root);
    }

    /**
     * The filter that refuses {@link #MEMORY_OUTSIDE_LIMITS} (EPERM) and kills a call of another architecture's
     * numbering (libseccomp's default for it), compiled by libseccomp through its Python binding in the interpreter.
     */
    private static byte[] seccompFilter(Path interpreter) {
        String program = "import errno, seccomp, sys\n"
                + "f = seccomp.SyscallFilter(seccomp.ALLOW)\n"
                + "for name in sys.argv[1:]: f.add_rule(seccomp.ERRNO(errno.EPERM), name)\n"
                + "f.export_bpf(sys.stdout)\n";
        List<String> command = new ArrayList<>(List.of(interpreter.toString(), "-I", "-c", program));
        command.addAll(MEMORY_OUTSIDE_LIMITS);
        try {
            Process p = new ProcessBuilder(command).start();
            p.getOutputStream().close();
            byte[] filter = p.getInputStream().readAllBytes();
            String error = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || filter.length == 0) {
                throw new IllegalStateException(error.contains("No module named 'seccomp'")
                        ? "code actions need libseccomp's Python binding for " + interpreter + " (Debian: python3-seccomp)"
                        : "cannot compile the sandbox's seccomp filter with " + interpreter + ": "
                                + error.substring(error.lastIndexOf('\n') + 1));
            }
            return filter;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + interpreter + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling the sandbox's seccomp filter");
        }
    }

    /**
     * The interpreter, its standard library (it says where: {@code sysconfig}) and the folders of the libraries it and
     * the loader link ({@code ldd}), each under {@code /usr}.
     */
    private static List<Path> interpreterFiles(Path interpreter) {
        Set<Path> files = new LinkedHashSet<>();
        files.add(interpreter);
        for (String line : output(interpreter.toString(), "-I", "-c",
                "import sysconfig; p = sysconfig.get_paths(); print(p['stdlib']); print(p['platstdlib'])")) {
            if (!line.isBlank()) files.add(Path.of(line.trim()));
        }
        for (String line : output(command("ldd", "libc-bin").toString(), interpreter.toString())) {
            Matcher m = LINKED.matcher(line);
            if (!m.find()) continue;
            try {
                files.add(Path.of(m.group(1)).getParent().toRealPath()); // /lib/x86_64-linux-gnu is /usr/lib/x86_64-linux-gnu
            } catch (IOException e) {
                throw new IllegalStateException("the interpreter " + interpreter + " links " + m.group(1) + ", which cannot be read");
            }
        }
        for (Path file : files) {
            if (!file.startsWith("/usr/")) {
                throw new IllegalStateException("the code-action interpreter " + interpreter + " needs " + file
                        + ", outside /usr, where the sandbox mounts from");
            }
        }
        return List.copyOf(files);
    }

    /** A library path in {@code ldd}'s output: after {@code =>}, or the loader's at the start of its line. */
    private static final Pattern LINKED = Pattern.compile("(?:=>\\s*|^\\s*)(/\\S+)");

    /** A helper's standard output, line by line. @throws IllegalStateException when it cannot run or fails */
    private static List<String> output(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("`" + String.join(" ", command) + "` failed: " + out.strip());
            }
            return out.lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command[0] + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command[0]);
        }
    }

    /** {@code --disable-userns} came with bubblewrap 0.8.0; an older one would let a program make user namespaces. */
    private static void checkDisablesUserNamespaces(Path bwrap) {
        String help;
        try {
            Process p = new ProcessBuilder(bwrap.toString(), "--help").redirectErrorStream(true).start();
            p.getOutputStream().close();
            help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + bwrap + " --help: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + bwrap);
        }
        if (!help.contains("--disable-userns")) {
            throw new IllegalStateException("code actions need bubblewrap 0.8.0 or newer (" + bwrap + " has no --disable-userns)");
        }
    }

    /** {@code /usr/bin/python3} with {@link SandboxLimits#defaults()}. */
    public static PythonSandbox withDefaults() {
        return create(Path.of("/usr/bin/python3"), SandboxLimits.defaults());
    }

    public SandboxLimits limits() {
        return limits;
    }

    /**
     * Runs {@code code} with {@code tools} as Python functions whose calls {@code bridge} answers. The stage never
     * fails: whatever goes wrong (syntax, an exception, a limit, the sandbox itself) is the run's error.
     */
    public CompletableFuture<CodeRun> run(String code, List<ToolSpec> tools, Bridge bridge) {
        long start = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
            Integer slot = null;
            try {
                slot = freeSlots.take();
                return runInSlot(slot, code, tools, bridge, start);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failedRun(code, "the sandbox was shut down", start);
            } catch (IOException | RuntimeException e) {
                return failedRun(code, "the sandbox could not run the program: " + e.getMessage(), start);
            } finally {
                if (slot != null) freeSlots.add(slot);
            }
        }, runners);
    }

    private CodeRun runInSlot(int slot, String code, List<ToolSpec> tools, Bridge bridge, long start) throws IOException {
        Path dir = Files.createTempDirectory("toolcoach-code-");
        try {
            Files.writeString(dir.resolve("harness.py"), harness);
            Files.writeString(dir.resolve("runner.py"), runner);
            Files.write(dir.resolve("seccomp.bpf"), seccompFilter);
            Path stderrFile = Files.createTempFile("toolcoach-code-", ".stderr");
            if (root) {
                int uid = FIRST_SLOT_UID + slot;
                Files.setAttribute(dir, "unix:uid", uid);
                Files.setAttribute(dir, "unix:gid", uid);
            }
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            ProcessBuilder builder = new ProcessBuilder(command(slot, dir)).redirectError(stderrFile.toFile());
            builder.environment().clear(); // bubblewrap is the sandbox's PID 1's parent: /proc/1/environ would be ours
            Process process = builder.start();
            running.add(process);
            AtomicReference<String> killedFor = new AtomicReference<>();
            ScheduledFuture<?> wall = clock.schedule(() -> kill(process, killedFor, "the program ran past its wall time of "
                    + limits.wallTime().toSeconds() + " s"), limits.wallTime().toMillis(), TimeUnit.MILLISECONDS);
            Exchange exchange = new Exchange();
            try {
                exchange.talk(process, code, tools, bridge, killedFor, start);
                process.waitFor(Math.max(1, remainingMillis(start)), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                killedFor.compareAndSet(null, "the sandbox was shut down");
            } finally {
                wall.cancel(false);
                if (process.isAlive()) kill(process, killedFor, "the program did not end after its result");
                waitQuietly(process);
                running.remove(process);
            }
            String sandboxError = capped(readCapped(stderrFile));
            Files.deleteIfExists(stderrFile);
            int exit = exchange.exit != null ? exchange.exit : process.exitValue();
            String stderr = exchange.finished ? capped(exchange.stderr) : sandboxError;
            return new CodeRun(code, capped(exchange.stdout), stderr, exit, exchange.value,
                    error(exchange, killedFor.get(), exit, stderr), exchange.calls, millisSince(start));
        } finally {
            deleteTree(dir);
        }
    }

    /** Why the run failed, from the most telling evidence: a limit we enforced, the program's own report, the exit. */
    private String error(Exchange exchange, String killedFor, int exit, String stderr) {
        if (killedFor != null) return killedFor;
        if (exchange.protocolError != null) return exchange.protocolError;
        if (exchange.done) return exchange.error;
        if (exit == SIGXCPU_EXIT) return "the program ran past its CPU time limit of " + limits.cpuSeconds() + " s";
        if (exit == SIGKILL_EXIT) return "the program was killed (memory or process limit)";
        String last = stderr.strip();
        int lastLine = last.lastIndexOf('\n');
        return "the program ended without a result (exit " + exit + ")"
                + (last.isEmpty() ? "" : ": " + last.substring(lastLine + 1));
    }

    /** The conversation with one running program, through the sandbox's harness. */
    private final class Exchange {
        private final List<Map<String, Object>> calls = new ArrayList<>();
        /** The harness sent its final message. */
        private boolean finished;
        /** The program finished and reported its result. */
        private boolean done;
        private Object value;
        private String error;
        private String protocolError;
        /** The program's exit status (128 + signal when the kernel stopped it), from the harness. */
        private Integer exit;
        private String stdout = "";
        private String stderr = "";

        void talk(Process process, String code, List<ToolSpec> tools, Bridge bridge, AtomicReference<String> killedFor,
                  long start) throws InterruptedException {
            try (BufferedWriter in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
                 InputStream out = process.getInputStream()) {
                send(in, request(code, tools));
                String line;
                while (!finished && (line = readLine(out)) != null) {
                    JsonNode message = UntrustedJson.readTree(JSON, line, MAX_JSON_DEPTH);
                    if (message != null && message.has("done")) {
                        finish(message);
                    } else if (message != null && message.path("call").isTextual()) {
                        if (calls.size() >= limits.maxToolCalls()) {
                            protocolError = "the program made more than " + limits.maxToolCalls() + " tool calls";
                            kill(process, killedFor, null);
                            return;
                        }
                        send(in, answer(callOf(message), bridge, start));
                    } else {
                        protocolError = "the program wrote something other than a tool call to the sandbox's channel";
                        kill(process, killedFor, null);
                        return;
                    }
                }
            } catch (LineTooLong e) {
                protocolError = "the program wrote a line longer than " + MAX_PROTOCOL_LINE + " bytes to the sandbox's channel";
                kill(process, killedFor, null);
            } catch (JsonProcessingException e) {
                protocolError = "the program wrote something other than a tool call to the sandbox's channel";
                kill(process, killedFor, null);
            } catch (IOException e) {
                // the program is gone: its exit status and stderr say why
            }
        }

        private void finish(JsonNode message) throws JsonProcessingException {
            finished = true;
            int status = message.path("exit").asInt(0);
            exit = status < 0 ? 128 - status : status; // Python gives -N for signal N
            stdout = message.path("stdout").asText("");
            stderr = message.path("stderr").asText("");
            if (message.path("protocol_error").isTextual()) protocolError = message.get("protocol_error").asText();
            JsonNode result = message.get("done");
            if (result == null || !result.isObject()) return;
            done = true;
            if (result.path("ok").asBoolean(false)) {
                JsonNode v = result.get("value");
                value = v == null || v.isNull() ? null : JSON.treeToValue(v, Object.class);
            } else {
                error = result.path("error").asText("the program failed");
            }
        }

        private ToolCall callOf(JsonNode message) throws JsonProcessingException {
            JsonNode arguments = message.path("arguments");
            @SuppressWarnings("unchecked")
            Map<String, Object> args = arguments.isObject() ? JSON.treeToValue(arguments, Map.class) : Map.of();
            return new ToolCall(message.get("call").asText(), args);
        }

        private ObjectNode answer(ToolCall call, Bridge bridge, long start) throws InterruptedException {
            ToolResult result;
            try {
                result = bridge.call(call).toCompletableFuture().get(Math.max(1, remainingMillis(start)), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                result = ToolResult.failed(call, ToolResult.Status.ERROR, String.valueOf(e.getCause()), 0);
            } catch (TimeoutException e) {
                result = ToolResult.failed(call, ToolResult.Status.TIMEOUT, "no result before the program's wall time ran out", 0);
            } catch (RuntimeException e) {
                result = ToolResult.failed(call, ToolResult.Status.ERROR, e.toString(), 0);
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("name", call.name());
            record.put("arguments", call.arguments());
            record.put("status", result.status().name());
            calls.add(record);
            ObjectNode reply = JSON.createObjectNode();
            reply.put("ok", result.ok());
            if (result.ok()) {
                reply.set("value", JSON.valueToTree(result.structured() != null ? result.structured() : result.text()));
            } else {
                reply.put("error", result.error() != null ? result.error() : result.text());
            }
            return reply;
        }
    }

    private ObjectNode request(String code, List<ToolSpec> tools) {
        ObjectNode request = JSON.createObjectNode();
        request.put("code", code);
        var list = request.putArray("tools");
        for (ToolSpec tool : tools) {
            ObjectNode t = list.addObject();
            t.put("name", tool.name());
            var params = t.putArray("params");
            tool.parameterNames().forEach(params::add);
        }
        return request;
    }

    private static void send(BufferedWriter in, JsonNode message) throws IOException {
        in.write(JSON.writeValueAsString(message));
        in.write('\n');
        in.flush();
    }

    private static final class LineTooLong extends IOException {
    }

    /** One protocol line, or null at the end of the stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') return line.toString(StandardCharsets.UTF_8);
            if (line.size() >= MAX_PROTOCOL_LINE) throw new LineTooLong();
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }

    private List<String> command(int slot, Path dir) {
        List<String> command = new ArrayList<>(List.of(prlimit.toString(),
                "--cpu=" + limits.cpuSeconds() + ":" + (limits.cpuSeconds() + 1), // SIGXCPU first, SIGKILL a second later
                "--as=" + limits.memoryBytes(),
                "--fsize=" + limits.maxFileBytes(),
                "--nproc=" + processLimit(),
                "--nofile=64",
                "--core=0",
                "--"));
        if (root) {
            int uid = FIRST_SLOT_UID + slot;
            command.addAll(List.of(setpriv.toString(), "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--"));
        }
        // bubblewrap reads the filter from a descriptor, which a shell opens for it (a JVM can pass only 0, 1 and 2)
        command.addAll(List.of("/bin/sh", "-c", "f=$1; shift; exec \"$@\" " + SECCOMP_FD + "< \"$f\"", "sh",
                dir.resolve("seccomp.bpf").toString()));
        // the harness is PID 1 (--as-pid-1): no bubblewrap process whose descriptors a program could open in /proc
        command.addAll(List.of(bwrap.toString(), "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--as-pid-1", "--seccomp", Integer.toString(SECCOMP_FD)));
        for (Path file : interpreterFiles) command.addAll(List.of("--ro-bind", file.toString(), file.toString()));
        command.addAll(List.of("--symlink", "usr/lib", "/lib", "--symlink", "usr/bin", "/bin"));
        if (Files.isDirectory(Path.of("/usr/lib64"))) command.addAll(List.of("--symlink", "usr/lib64", "/lib64"));
        // one writable place, its size the cap on everything the program writes; / and /dev (tmpfs too) read-only
        command.addAll(List.of("--proc", "/proc", "--dev", "/dev",
                "--size", Long.toString(limits.scratchBytes()), "--tmpfs", "/sandbox", "--dir", "/sandbox/tmp",
                "--symlink", "/sandbox/tmp", "/tmp", "--ro-bind", dir.toString(), "/harness",
                "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", "/sandbox",
                "--clearenv", "--setenv", "PATH", "/usr/bin", "--setenv", "HOME", "/sandbox",
                "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
                "--", python.toString(), "-I", "-X", "utf8", "/harness/harness.py"));
        return command;
    }

    /**
     * RLIMIT_NPROC counts every process and thread of the user: a slot's own user runs bubblewrap's monitor, the
     * harness and the program; another user runs whatever it runs already, which the limit must leave room for.
     */
    private long processLimit() {
        long base = root ? SANDBOX_PROCESSES : tasksOfThisUser() + SANDBOX_PROCESSES;
        return base + limits.maxProcesses();
    }

    private static long tasksOfThisUser() {
        Object uid = uidOfThisProcess();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return uid.equals(Files.getAttribute(p, "unix:uid"));
                        } catch (IOException | RuntimeException e) {
                            return false; // the process ended meanwhile
                        }
                    })
                    .mapToLong(p -> {
                        try (Stream<Path> threads = Files.list(p.resolve("task"))) {
                            return threads.count();
                        } catch (IOException | RuntimeException e) {
                            return 0;
                        }
                    }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot count this user's processes in /proc", e);
        }
    }

    private static Object uidOfThisProcess() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read this process's user from /proc/self", e);
        }
    }

    private void kill(Process process, AtomicReference<String> killedFor, String reason) {
        if (reason != null) killedFor.compareAndSet(null, reason);
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void waitQuietly(Process process) {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long remainingMillis(long start) {
        return limits.wallTime().toMillis() - millisSince(start);
    }

    private static String readCapped(Path file) {
        if (!Files.exists(file)) return "";
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(READ_CAP + 1), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** At most {@link #READ_CAP} characters, marked where cut. */
    private static String capped(String text) {
        return text.length() > READ_CAP ? text.substring(0, READ_CAP) + "\n[cut at " + READ_CAP + " bytes]" : text;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind is not worth failing the run for
        }
    }

    private static CodeRun failedRun(String code, String error, long start) {
        return new CodeRun(code, "", "", -1, null, error, List.of(), millisSince(start));
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static Path command(String name, String debianPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) return candidate;
        }
        throw new IllegalStateException("code actions need '" + name + "' on the PATH (Debian package " + debianPackage + ")");
    }

    private static String resource(String name) {
        try (InputStream in = PythonSandbox.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(name + " is missing from the tools jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Kills the programs still running and stops taking new ones. */
    @Override
    public void close() {
        running.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        runners.shutdownNow();
        clock.shutdownNow();
    }
}
