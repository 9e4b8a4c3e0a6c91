package dev.toolcoach.coachnode;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.generate.Llama2cRun;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code generate}: loads a llama2.c checkpoint or an HF folder and prints only the generated text on standard
 * output (problems go to standard error). llama2.c checkpoints follow llama2.c run's conventions (BOS first,
 * steps include the prompt, prompt printed before the continuation); HF models print the continuation.
 */
@Command(name = "generate", mixinStandardHelpOptions = true, description = "Generate text with a llama2.c checkpoint or a Hugging Face model folder")
public final class GenerateCommand implements Callable<Integer> {

    /** A sampling option out of range: checked before anything loads. */
    static final int USAGE_ERROR = 2;

    @Mixin
    DeviceOption device;
    @Option(names = "--model", required = true, description = "llama2.c .bin checkpoint or HF model folder")
    Path model;

    @Option(names = "--tokenizer", description = "tokenizer.bin (llama2.c) or tokenizer.json; default: beside the model")
    Path tokenizer;

    @Option(names = "--prompt", defaultValue = "", description = "prompt text")
    String prompt;

    @Option(names = "--temperature", defaultValue = "1.0", description = "0 = greedy (default ${DEFAULT-VALUE})")
    float temperature;

    @Option(names = "--top-p", defaultValue = "0.9", description = "nucleus sampling threshold (default ${DEFAULT-VALUE})")
    float topP;

    @Option(names = "--steps", defaultValue = "256", description = "llama2.c: positions including the prompt; HF: new tokens (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--seed", description = "random seed (default: time based)")
    Long seed;

    @Option(names = "--threads", defaultValue = "1", description = "PyTorch intra-op threads (default ${DEFAULT-VALUE})")
    int threads;

    private final PrintStream out;
    private final PrintStream err;

    public GenerateCommand() {
        this(System.out, System.err);
    }

    public GenerateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        long rngSeed = seed != null ? seed : System.nanoTime();
        SamplingParams sampling;
        try {
            if (steps < 1) throw new IllegalArgumentException("--steps must be at least 1, got " + steps);
            sampling = new SamplingParams(temperature, 0, topP, steps, rngSeed);
        } catch (IllegalArgumentException e) {
            err.println("generate: " + e.getMessage());
            return USAGE_ERROR;
        }
        try (NDManager root = device.value().newManager(); PolicyModel m = ModelLoader.load(model, tokenizer, root)) {
            OpThreads.setIntraOp(threads);
            if (m.tokenizer() instanceof Llama2cTokenizer tok) {
                out.print(Llama2cRun.generate(m.transformer(), tok, prompt, sampling.temperature(), sampling.topP(), steps, rngSeed));
            } else {
                out.print(continuation(m, sampling));
            }
            out.flush();
            return 0;
        } catch (ModelLoadException | IllegalArgumentException e) { // bad input, as every command answers it (serve, train)
            err.println("generate: " + e.getMessage());
            return USAGE_ERROR;
        }
    }

    private String continuation(PolicyModel m, SamplingParams sampling) {
        int[] encoded = m.tokenizer().encode(prompt);
        int bos = m.source().bosTokenId();
        int[] ids = encoded;
        if (bos >= 0) {
            ids = new int[encoded.length + 1];
            ids[0] = bos;
            System.arraycopy(encoded, 0, ids, 1, encoded.length);
        }
        if (ids.length == 0) {
            throw new IllegalArgumentException("empty prompt and the model has no BOS token to start from");
        }
        DecodedSequence g = BatchDecoder.decodeOne(m.transformer(), m.tokenizer(), ids,
                sampling.withStopTokenIds(m.source().eosTokenIds()), null);
        return g.text();
    }
}
