package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import dev.toolcoach.tools.codeact.SandboxLimits;

import java.nio.file.Path;

/**
 * The sandbox a node runs code actions in ({@code toolcoach.code-act}): athletes run the programs of their
 * rollouts there, the coach node those of its evaluations and oracle texts.
 *
 * @param python the interpreter (under /usr, the only tree the sandbox mounts)
 * @param limits what one program may use
 */
public record CodeActSettings(Path python, SandboxLimits limits) {

    private static final String PATH = "toolcoach.code-act.";

    /** Read by full path, so a value of the wrong kind is named as the user wrote it. */
    static CodeActSettings fromConfig(Config config) {
        long cpuSeconds = config.getDuration(PATH + "cpu-time").toSeconds();
        if (cpuSeconds > Integer.MAX_VALUE) throw new NodeConfigException(PATH + "cpu-time is too long");
        try {
            return new CodeActSettings(Path.of(config.getString(PATH + "python")), new SandboxLimits((int) cpuSeconds,
                    config.getDuration(PATH + "wall-time"), config.getBytes(PATH + "memory"), config.getInt(PATH + "max-processes"),
                    config.getBytes(PATH + "max-file-size"), config.getBytes(PATH + "scratch-size"), config.getInt(PATH + "max-tool-calls"), config.getInt(PATH + "max-running")));
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException("toolcoach.code-act: " + e.getMessage());
        }
    }
}
