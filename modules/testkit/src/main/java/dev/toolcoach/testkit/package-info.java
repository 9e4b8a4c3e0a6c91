/**
 * Test doubles and fixtures shared by several modules' tests and the benches; tests use the testkit in test scope, the
 * benches in compile scope, no production module at all. Test doubles never live in a module's {@code src/main}: a
 * double that only one module's tests use stays in that module's {@code src/test}; one that several modules' tests or
 * the benches share comes here. Maven forbids cycles even in test scope, so a module the testkit depends on (trace, lm,
 * model, agent, openai) cannot use it in its tests: such a test keeps its double in its own {@code src/test}, or, when
 * it needs a shared double, lives in the testkit's {@code src/test} (openai's {@code ServerClientTest}, agent's
 * {@code AgentLoopTest}). No module publishes a test-jar.
 * <ul>
 *   <li>{@code HeadlessChromium}: Debian's Chromium through Selenium, for the browser tests (excluded from the
 *       benches); {@code .ci/run} installs {@code chromium} and {@code chromium-driver}; a missing one fails the test
 *       naming the package. The trace viewer offline ({@code TracesCommandTest}) and the dashboard against a running
 *       job ({@code JobControllerTest}) are driven with it, each with DOM assertions, no console error, and a
 *       screenshot under {@code target/screenshots/}.</li>
 *   <li>{@code ScriptedBackend} (an OpenAI backend replaying a script) and {@code ScriptedServer} (the real server over
 *       it on a free loopback port); {@code PerTrajectoryGenerator}.</li>
 *   <li>{@code TinyChatModel} (a tiny random Qwen2 HF folder with a byte-level tokenizer.json);
 *       {@code ToolCallingModel} (a tiny folder of any family that always answers one fixed reply, e.g. a native tool
 *       call).</li>
 *   <li>{@code TestAdapters}, {@code SampleMessages}, {@code FreePorts}, {@code SharedData} (the ../shared/data
 *       locator), {@code FunctionTools} (Java functions as a {@code ToolEnvironment}).</li>
 * </ul>
 */
package dev.toolcoach.testkit;
