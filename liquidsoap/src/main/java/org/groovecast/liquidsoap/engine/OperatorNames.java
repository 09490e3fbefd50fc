package org.groovecast.liquidsoap.engine;

/**
 * The naming rule between the two languages: Liquidsoap writes snake_case where Groovecast writes
 * camelCase, word by word and segment by segment ({@code on_metadata} is {@code onMetadata}, {@code
 * track_sensitive} {@code trackSensitive}, {@code clock.assign_new} {@code clock.assignNew}). Where
 * the names differ otherwise, {@link Mappings} says so.
 */
public final class OperatorNames {
    private OperatorNames() {}

    /** {@code maxDuration} to {@code max_duration}, {@code output.file.hls} unchanged. */
    public static String toLiquidsoap(String camel) {
        StringBuilder out = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0 && camel.charAt(i - 1) != '.') out.append('_');
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code on_metadata} to {@code onMetadata}. */
    public static String toGroovecast(String snake) {
        StringBuilder out = new StringBuilder(snake.length());
        boolean up = false;
        for (int i = 0; i < snake.length(); i++) {
            char c = snake.charAt(i);
            if (c == '_' && i > 0 && i + 1 < snake.length() && snake.charAt(i - 1) != '.') {
                up = true;
            } else {
                out.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return out.toString();
    }
}
