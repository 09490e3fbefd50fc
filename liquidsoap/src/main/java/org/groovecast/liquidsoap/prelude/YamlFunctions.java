package org.groovecast.liquidsoap.prelude;

import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Yaml;

/**
 * {@code yaml.stringify(v)}: a value as block YAML ({@code let yaml.parse} reads it back). The
 * styles Liquidsoap takes are checked and the default ones used: Jackson's YAML writer quotes a
 * string only where YAML must.
 */
final class YamlFunctions {
    private YamlFunctions() {}

    private static final Set<String> SCALAR_STYLES =
            Set.of("any", "plain", "single_quoted", "double_quoted", "literal", "folded");
    private static final Set<String> LAYOUT_STYLES = Set.of("any", "block", "flow");

    static void register(Library lib) {
        lib.function(
                "yaml.stringify",
                "(?scalar_style : string, ?layout_style : string, 'a) -> string",
                "A value as YAML (records and json() objects as mappings, lists and tuples as sequences).",
                Map.of("scalar_style", "any", "layout_style", "any"),
                a -> {
                    if (!SCALAR_STYLES.contains(a.string(0)))
                        throw Errors.of("yaml", "Invalid scalar style: " + a.string(0));
                    if (!LAYOUT_STYLES.contains(a.string(1)))
                        throw Errors.of("yaml", "Invalid layout style: " + a.string(1));
                    return Yaml.stringify(a.get(2));
                });
    }
}
