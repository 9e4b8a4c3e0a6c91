package dev.toolcoach.tasks;

import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tasks.datasets.GlaiveLoader;
import dev.toolcoach.tasks.datasets.XlamLoader;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.tasks.synthetic.EmailCorpus;
import dev.toolcoach.tasks.synthetic.EmailTask;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tasks.synthetic.HpoTask;
import dev.toolcoach.tools.hpo.HpoDataset;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.email.MailSource;
import dev.toolcoach.tools.email.MailSourceException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Tasks by name. A task is built when first asked for, so data that is not used is never read. */
public final class TaskRegistry {

    /** Questions per generated task in the standard registry: enough that training need not repeat what a warm-up saw. */
    public static final int GENERATED_QUESTIONS = 2500;

    private final Map<String, Supplier<Task>> factories = new LinkedHashMap<>();
    private final Map<String, Task> built = new LinkedHashMap<>();

    public synchronized TaskRegistry register(String name, Supplier<Task> factory) {
        if (factories.putIfAbsent(name, factory) != null) throw new IllegalArgumentException("a task named '" + name + "' is already registered");
        return this;
    }

    /** The task of that name (built once), or an error listing the known names. */
    public synchronized Task get(String name) {
        Supplier<Task> factory = factories.get(name);
        if (factory == null) throw new IllegalArgumentException("no task named '" + name + "'; known tasks: " + names());
        return built.computeIfAbsent(name, n -> factory.get());
    }

    public synchronized List<String> names() {
        return List.copyOf(factories.keySet());
    }

    /**
     * {@code arithmetic}, {@code finance}, {@code email} and {@code hpo} generated with {@code seed} (and {@code hpo}
     * over one dataset: {@code hpo-breast_cancer}, {@code hpo-wine}, {@code hpo-digits}, {@code hpo-diabetes}), and the
     * datasets under {@code dataDir} ({@code bfcl/}, {@code toolcall/}, {@code enron/}, {@code hpo/}, laid out as
     * in the project's shared data): {@code bfcl-simple}, {@code bfcl-multiple}, {@code bfcl-parallel},
     * {@code xlam-toolalpaca}, {@code glaive}.
     */
    public static TaskRegistry standard(Path dataDir, long seed) {
        TaskRegistry r = new TaskRegistry();
        r.register(ArithmeticTask.NAME, () -> ArithmeticTask.create(GENERATED_QUESTIONS, seed));
        r.register(FinanceTask.NAME, () -> FinanceTask.create(GENERATED_QUESTIONS, seed));
        r.register(EmailTask.NAME, () -> emailTask(dataDir.resolve("enron"), seed));
        // the datasets are read when one of the hpo tasks is first asked for
        Supplier<HpoLab> hpoLab = () -> HpoLab.shared(existing(dataDir.resolve("hpo")));
        r.register(HpoTask.NAME, () -> HpoTask.create(hpoLab.get(), seed));
        for (String dataset : HpoDataset.NAMES) {
            List<String> one = List.of(dataset);
            r.register(HpoTask.name(one), () -> HpoTask.create(hpoLab.get(), one, seed));
        }
        for (String category : List.of("simple", "multiple", "parallel")) {
            r.register("bfcl-" + category, () -> new FunctionCallingTask("bfcl-" + category, new BfclLoader().load(
                    existing(dataDir.resolve("bfcl/BFCL_v3_" + category + ".json")),
                    existing(dataDir.resolve("bfcl/possible_answer/BFCL_v3_" + category + ".json")))));
        }
        r.register("xlam-toolalpaca", () -> new FunctionCallingTask("xlam-toolalpaca",
                new XlamLoader().load(existing(dataDir.resolve("toolcall/toolalpaca_xlam_format.json")), "xlam")));
        r.register("glaive", () -> new FunctionCallingTask("glaive",
                new GlaiveLoader().load(existing(dataDir.resolve("toolcall/glaive_toolcall_en_demo.json")), "glaive")));
        return r;
    }

    private static Task emailTask(Path enron, long seed) {
        List<MailSource> sources = List.of(MailSource.at(existing(enron.resolve("maildir"))),
                MailSource.at(existing(enron.resolve("emails_sample.csv"))));
        try {
            return EmailTask.create(EmailCorpus.read(sources).items(), Integer.MAX_VALUE, seed);
        } catch (MailSourceException e) {
            throw new DatasetException("cannot read the Enron mail under " + enron + ": " + e.getMessage(), e);
        }
    }

    private static Path existing(Path p) {
        if (!Files.exists(p)) throw new DatasetException("dataset file " + p + " does not exist");
        return p;
    }
}
