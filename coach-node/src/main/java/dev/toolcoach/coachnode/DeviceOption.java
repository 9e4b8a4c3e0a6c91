package dev.toolcoach.coachnode;

import ai.djl.Device;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.Precision;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --device} and {@code --precision}: where and in which type a command's models compute (a mixin of every command
 * that loads a model), as a {@link ComputeDevice} value the command hands to what loads them. Both are checked while the
 * command line is parsed, so an unknown or missing device, or a precision the JNI cannot train in, is a usage error (one
 * line, exit 2) before any model is read.
 */
public final class DeviceOption {

    /** {@code --precision}'s default: the system property, else the environment variable, else auto. */
    static final String PRECISION_DEFAULT = "${sys:toolcoach.precision:-${env:TOOLCOACH_PRECISION:-auto}}";

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private Device device = Device.cpu();
    private String precision = Precision.AUTO;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "${sys:toolcoach.device:-${env:TOOLCOACH_DEVICE:-cpu}}",
            description = "where models compute: cpu, cuda or cuda:N (cuda needs the -Pcuda build and a GPU; default: "
                    + "system property toolcoach.device, else env TOOLCOACH_DEVICE, else cpu)")
    void device(String name) {
        try {
            device = ComputeDevice.available(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--device: " + e.getMessage());
        }
    }

    @Option(names = "--precision", paramLabel = "P", defaultValue = PRECISION_DEFAULT,
            description = "the type a frozen base computes in: auto (f32 on the CPU; bf16 on a GPU with ToolCoach's JNI build, "
                    + "else f32), f32, f16 or bf16; adapters, optimiser state, norms, softmax and the loss stay f32 (default: system "
                    + "property toolcoach.precision, else env TOOLCOACH_PRECISION, else auto)")
    void precision(String name) {
        try {
            ComputeDevice.precision(Device.cpu(), name); // auto's choice waits for the device; a named type is checked now
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--precision: " + e.getMessage());
        }
        precision = name;
    }

    /** The device and precision given. */
    ComputeDevice value() {
        return new ComputeDevice(device, ComputeDevice.precision(device, precision));
    }
}
