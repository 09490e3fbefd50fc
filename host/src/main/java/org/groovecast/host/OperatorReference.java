package org.groovecast.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.OperatorSpec;
import org.groovecast.host.script.ScriptFunctions;

/**
 * docs/reference/operators.md, made from the operators' own declarations (name, signature and doc),
 * so the reference cannot drift from what a script may call: the engine's providers ({@link
 * EngineOperators}) first, then each plugin's. {@code OperatorReferenceTest} fails while the file
 * differs and prints the current text. The hand-written tables of docs/reference/groovy.md stay:
 * they explain, this lists.
 */
public final class OperatorReference {
    /**
     * Where the generated part starts and ends in docs/reference/operators.md (comments, hidden on
     * the rendered page).
     */
    public static final String BEGIN =
            "<!-- operators: generated from the OperatorSpecs by OperatorReference, checked by OperatorReferenceTest -->";

    public static final String END = "<!-- end of operators -->";

    private OperatorReference() {}

    /**
     * The reference for a station loaded with {@code plugins}: a section per provider, a row per
     * operator by name.
     */
    public static String markdown(ScriptFunctions plugins) {
        ScriptFunctions table = Station.functionTable(plugins);
        Map<String, List<OperatorSpec>> engine = new LinkedHashMap<>(); // in EngineOperators' order
        Map<String, List<OperatorSpec>> byPlugin = new LinkedHashMap<>();
        for (OperatorSpec spec : table.all()) {
            String owner = table.owner(spec.name());
            boolean fromPlugin = plugins.owner(spec.name()) != null;
            (fromPlugin ? byPlugin : engine)
                    .computeIfAbsent(owner, o -> new ArrayList<>())
                    .add(spec);
        }
        StringBuilder out = new StringBuilder();
        engine.forEach((owner, specs) -> section(out, owner, "Built into the engine.", specs));
        // Plugins by id: the order PF4J loads them in depends on the directory listing.
        byPlugin.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(
                        e ->
                                section(
                                        out,
                                        e.getKey(),
                                        "Plugin `" + e.getKey() + "`.",
                                        e.getValue()));
        return out.toString().strip() + "\n";
    }

    private static void section(
            StringBuilder out, String owner, String origin, List<OperatorSpec> specs) {
        out.append("## ").append(owner).append("\n\n").append(origin).append("\n\n");
        out.append("| operator | signature | what it does |\n|---|---|---|\n");
        specs.stream()
                .sorted(Comparator.comparing(OperatorSpec::name))
                .forEach(
                        spec ->
                                out.append("| `")
                                        .append(spec.name())
                                        .append("` | `")
                                        .append(cell(spec.signature()))
                                        .append("` | ")
                                        .append(cell(spec.doc()))
                                        .append(" |\n"));
        out.append('\n');
    }

    /**
     * A table cell's text: one line, its pipes escaped (GitHub honours the escape inside code spans
     * too).
     */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }
}
