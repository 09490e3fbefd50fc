package org.groovecast.liquidsoap.eval;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YAML as Liquidsoap reads and writes it, by Jackson's YAML module: read, a document is the value
 * its JSON would be (mappings records, sequences lists, scalars numbers, booleans, strings or
 * null), which {@code let yaml.parse (x : T) = s} then reads as the type written, as {@code let
 * json.parse} does; written, a value is its JSON (json() objects in Liquidsoap's key order) as
 * block YAML, strings quoted only where they must be.
 */
public final class Yaml {
    private Yaml() {}

    private static final YAMLMapper READER = new YAMLMapper();
    private static final ObjectMapper WRITER =
            new ObjectMapper(
                    YAMLFactory.builder()
                            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                            .build());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The value of a YAML document; a malformed one raises error.yaml. */
    public static Object parse(String text) {
        try {
            JsonNode node = READER.readTree(text);
            return node == null ? null : value(node);
        } catch (JacksonException e) {
            throw Errors.of(
                    "yaml",
                    "Parse error: " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
    }

    /** {@code v} as a YAML document; a value with no YAML form (a function) raises error.yaml. */
    public static String stringify(Object v) {
        String json;
        try {
            json = Json.stringify(v, false, false);
        } catch (LiqError e) {
            throw Errors.of("yaml", "Value could not be converted to YAML: " + e.getMessage());
        }
        try {
            return WRITER.writeValueAsString(JSON.readTree(json));
        } catch (JacksonException e) {
            throw Errors.of(
                    "yaml", "Value could not be converted to YAML: " + e.getOriginalMessage());
        }
    }

    private static Object value(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                fields.put(e.getKey(), value(e.getValue()));
            }
            return Rec.record(fields);
        }
        if (n.isArray()) {
            List<Object> items = new ArrayList<>(n.size());
            for (JsonNode x : n) items.add(value(x));
            return Collections.unmodifiableList(items);
        }
        if (n.isIntegralNumber()) return n.canConvertToLong() ? n.asLong() : n.asDouble();
        if (n.isNumber()) return n.asDouble();
        if (n.isBoolean()) return n.asBoolean();
        if (n.isNull() || n.isMissingNode()) return null;
        return n.asText();
    }
}
