package dev.toolcoach.coachnode;

import dev.toolcoach.model.ComputeDevice;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --device}: where a command's models compute (a mixin of every command that loads a model). The device is
 * chosen while the command line is parsed, so an unknown or missing device is a usage error (one line, exit 2)
 * before any model is read.
 */
public final class DeviceOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "${sys:toolcoach.device:-${env:TOOLCOACH_DEVICE:-cpu}}",
            description = "where models compute: cpu, cuda or cuda:N (cuda needs the -Pcuda build and a GPU; default: "
                    + "system property toolcoach.device, else env TOOLCOACH_DEVICE, else cpu)")
    void select(String name) {
        try {
            ComputeDevice.select(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--device: " + e.getMessage());
        }
    }
}
