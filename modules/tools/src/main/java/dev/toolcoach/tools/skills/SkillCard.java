package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * A skill as people see it: its SKILL.md (a front matter with its name and description, then its parameters, steps and
 * provenance) and its one-row summary (what {@code coach-node skills list} and {@code GET /skills} show).
 */
public final class SkillCard {

    private SkillCard() {
    }

    /** Name, status, suite, tools and provenance, as a JSON-shaped row. */
    public static Map<String, Object> summary(SkillDefinition d) {
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        row.put("name", d.name());
        row.put("status", d.status().name().toLowerCase(java.util.Locale.ROOT));
        row.put("suite", d.suite());
        row.put("tools", d.tools());
        row.put("support", d.provenance().support());
        row.put("novelty", d.provenance().novelty());
        row.put("validated", d.provenance().validated());
        row.put("source", d.provenance().source());
        row.put("created_at", d.provenance().createdAt());
        return row;
    }

    public static String markdown(SkillDefinition d) {
        StringBuilder md = new StringBuilder();
        md.append("---\nname: ").append(d.name()).append("\ndescription: ").append(d.description().replace("\n", " "))
                .append("\n---\n\n# ").append(d.name()).append("\n\n").append(d.description()).append("\n\n");
        md.append("Suite: `").append(d.suite()).append("`. Status: ").append(d.status().name().toLowerCase()).append(".\n\n");
        md.append("## Parameters\n\n");
        JsonNode properties = d.parameters().path("properties");
        java.util.Set<String> required = new java.util.HashSet<>();
        d.parameters().path("required").forEach(r -> required.add(r.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            md.append("- `").append(p.getKey()).append("` (").append(p.getValue().path("type").asText("any"))
                    .append(required.contains(p.getKey()) ? ", required" : ", optional").append("): ")
                    .append(p.getValue().path("description").asText()).append('\n');
        }
        md.append("\n## Steps\n\n");
        for (int k = 0; k < d.steps().size(); k++) {
            SkillDefinition.Step step = d.steps().get(k);
            md.append(k + 1).append(". `").append(step.tool()).append("`(");
            StringBuilder args = new StringBuilder();
            step.arguments().forEach((name, source) -> {
                if (!args.isEmpty()) args.append(", ");
                args.append(name).append(" = ");
                if (source instanceof ArgumentSource.Parameter p) {
                    args.append(p.name());
                    if (p.foundInStep() > 0) args.append(" [seen in step ").append(p.foundInStep()).append("'s result text]");
                } else if (source instanceof ArgumentSource.FromStep f) {
                    args.append("step ").append(f.step()).append(" result ").append(f.pointer().isEmpty() ? "(whole)" : f.pointer());
                }
            });
            md.append(args).append(")\n");
        }
        SkillDefinition.Provenance p = d.provenance();
        md.append("\n## Provenance\n\n")
                .append("- mined from: ").append(p.source()).append('\n')
                .append("- support: ").append(p.support()).append(" successful trajectories (min length ").append(p.minLength())
                .append(", min support ").append(p.minSupport()).append(")\n")
                .append("- novelty: ").append(String.format(java.util.Locale.ROOT, "%.2f", p.novelty())).append('\n')
                .append("- validated: ").append(p.validated()).append(" replays reproduced their recorded results\n")
                .append("- trajectories: ").append(String.join(", ", p.trajectories())).append('\n')
                .append("- created: ").append(p.createdAt()).append('\n');
        return md.toString();
    }
}
