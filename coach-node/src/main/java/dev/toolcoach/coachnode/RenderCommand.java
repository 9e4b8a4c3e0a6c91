package dev.toolcoach.coachnode;

import dev.toolcoach.chat.ChatTemplate;
import dev.toolcoach.model.io.ChatTemplates;
import dev.toolcoach.chat.ConversationFile;
import dev.toolcoach.chat.JinjaChatTemplate;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.ModelLoadException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code render}: prints exactly the text a model sees for a conversation, as Transformers'
 * {@code apply_chat_template} renders it, from a model folder's template or from a template file alone.
 */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Print exactly the prompt text a chat template makes of a conversation (as Transformers' apply_chat_template).")
public final class RenderCommand implements Callable<Integer> {

    @Option(names = "--model", description = "model folder: its chat_template.jinja or tokenizer_config.json's chat_template, else its family's format")
    Path model;

    @Option(names = "--template", description = "a Jinja chat template file, rendered without a model folder")
    Path template;

    @Option(names = "--tokens", description = "with --template: JSON file naming the special tokens as tokenizer_config.json does (bos_token, eos_token, ...)")
    Path tokens;

    @Option(names = "--bos", description = "with --template: the bos_token text")
    String bos;

    @Option(names = "--eos", description = "with --template: the eos_token text")
    String eos;

    @Option(names = "--conversation", required = true,
            description = "JSON file: {\"messages\": [...], \"tools\": [...], \"add_generation_prompt\": bool, \"chat_template_kwargs\": {...}}")
    Path conversation;

    @Option(names = "--date", description = "the day strftime_now reads (yyyy-MM-dd), to reproduce a rendering; default: now")
    String date;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            ChatTemplate chatTemplate = chatTemplate();
            String text = chatTemplate.render(ConversationFile.read(conversation));
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
            return 0;
        } catch (UsageException | IllegalArgumentException | ModelLoadException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
        }
    }

    private ChatTemplate chatTemplate() {
        if ((model == null) == (template == null)) {
            throw new UsageException("give either --model DIR or --template FILE");
        }
        if (model != null && (tokens != null || bos != null || eos != null)) {
            throw new UsageException("--tokens, --bos and --eos go with --template (a model folder names its own tokens)");
        }
        Clock clock = clock();
        if (model != null) {
            ChatTemplate t = ChatTemplates.forFolder(model);
            return t instanceof JinjaChatTemplate jinja ? jinja.withClock(clock) : t;
        }
        Map<String, Object> specials = new LinkedHashMap<>(tokens == null ? Map.of() : HfModelFolder.specialTokens(tokens));
        if (bos != null) {
            specials.put("bos_token", bos);
        }
        if (eos != null) {
            specials.put("eos_token", eos);
        }
        String source;
        try {
            source = Files.readString(template);
        } catch (IOException e) {
            throw new UsageException(template + ": cannot read (" + e.getMessage() + ")");
        }
        try {
            return new JinjaChatTemplate(Map.of("default", source), specials, clock);
        } catch (IllegalArgumentException e) {
            throw new UsageException(template + ": " + e.getMessage());
        }
    }

    private Clock clock() {
        if (date == null) {
            return Clock.systemDefaultZone();
        }
        try {
            ZoneId zone = ZoneId.systemDefault();
            return Clock.fixed(LocalDate.parse(date).atStartOfDay(zone).toInstant(), zone);
        } catch (DateTimeParseException e) {
            throw new UsageException("--date: expected yyyy-MM-dd, got '" + date + "'");
        }
    }
}
