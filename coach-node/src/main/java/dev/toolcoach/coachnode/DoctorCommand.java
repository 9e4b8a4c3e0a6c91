package dev.toolcoach.coachnode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code doctor}: what this machine's ToolCoach computes on (the PyTorch and JNI DJL found, the devices it sees), a
 * matmul checked on the device, a 16-bit precision's base checked against f32, and one verdict line; exit 0 when all
 * passed, 1 otherwise. The device and precision are only tried here, never refused while parsing: reporting why one
 * cannot be used is the command's job.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check the PyTorch, JNI and device ToolCoach computes on; ends with one verdict line (exit 0 ok, 1 not).")
public final class DoctorCommand implements Callable<Integer> {

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "${sys:toolcoach.device:-${env:TOOLCOACH_DEVICE:-cpu}}",
            description = "the device to check: cpu, cuda or cuda:N (default: as the other commands, else cpu)")
    String device;

    @Option(names = "--precision", paramLabel = "P", defaultValue = DeviceOption.PRECISION_DEFAULT,
            description = "the precision to check: auto, f32, f16 or bf16 (default: as the other commands, else auto)")
    String precision;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return new TorchDoctor(spec.commandLine().getOut()).run(device, precision) ? 0 : CommandOutput.RUN_ERROR;
    }
}
