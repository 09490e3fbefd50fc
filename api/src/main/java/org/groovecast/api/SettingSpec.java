package org.groovecast.api;

import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A setting a plugin declares ({@link SettingsProvider}): scripts set it as {@code
 * settings.ffmpeg.scalingThreads = 2}, the command line as {@code --set ffmpeg.scalingThreads=2},
 * checked against {@code type} like the engine's own settings, and the settings reference
 * (docs/reference/settings.md) lists it.
 *
 * @param name dotted camelCase words, the first one the plugin's ({@code ffmpeg.scalingThreads})
 * @param type {@link ValueType#NUMBER}, {@link ValueType#INTEGER}, {@link ValueType#BOOLEAN} or
 *     {@link ValueType#STRING}
 * @param defaultValue the value until a script or the command line sets one
 * @param doc its row in the settings reference (Markdown)
 */
public record SettingSpec(String name, ValueType type, Object defaultValue, String doc) {
    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+");
    private static final Set<ValueType> TYPES =
            Set.of(ValueType.NUMBER, ValueType.INTEGER, ValueType.BOOLEAN, ValueType.STRING);

    public SettingSpec {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "a setting's name is dotted camelCase words, at least two, got '" + name + "'");
        }
        if (!TYPES.contains(type))
            throw new IllegalArgumentException(
                    name + ": a setting is a number, integer, boolean or string");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(doc, "doc");
    }

    /**
     * This setting's value for a source prepared with {@code context}: the station's ({@link
     * StreamContext#setting}), or the default where the context has none (a test's context, or
     * null).
     */
    public Object valueIn(StreamContext context) {
        Object v = context == null ? null : context.setting(name);
        return v != null ? v : defaultValue;
    }
}
