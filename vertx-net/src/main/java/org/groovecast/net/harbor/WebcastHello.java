package org.groovecast.net.harbor;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.harbor.http.ClientText;

/**
 * The text messages of the webcast protocol (webcast.js, AzuraCast's web DJ): JSON objects {@code
 * {"type": ..., "data": ...}}. The first is the {@code hello}, naming the stream's MIME type and,
 * as AzuraCast and Liquidsoap's harbor have it, the DJ's user and password; later ones carry {@code
 * metadata}, and types the protocol does not define are ignored, as its specification asks.
 *
 * @param mime the stream's type, {@code audio/webm;codecs=opus} or {@code audio/mpeg}
 * @param user the user, or null when the hello names none
 * @param password the password, or null when the hello names none
 */
record WebcastHello(String mime, String user, String password) {

    /**
     * A text message that breaks the protocol; its text says how, for the log and the close frame.
     */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Parses the first message, which must be a hello with a {@code mime}. What a malformed one
     * says is never quoted back (into the log, the close frame): it may hold the DJ's password.
     */
    static WebcastHello parse(String text) throws Invalid {
        JsonObject m = message(text, false);
        if (!"hello".equals(m.getValue("type"))) {
            throw new Invalid(
                    "the first message must be a hello, got type "
                            + ClientText.quoted(text(m.getValue("type"))));
        }
        if (!(m.getValue("data") instanceof JsonObject data))
            throw new Invalid("the hello has no data object");
        if (!(data.getValue("mime") instanceof String mime) || mime.isBlank()) {
            throw new Invalid(
                    "the hello names no mime (say \"audio/webm;codecs=opus\" or \"audio/mpeg\")");
        }
        return new WebcastHello(
                mime.strip(), text(data.getValue("user")), text(data.getValue("password")));
    }

    /**
     * The metadata a later message carries, or null for a message of another type. Values that are
     * numbers or booleans are kept as their text; nested values and nulls are dropped.
     */
    static Map<String, String> metadata(String text) throws Invalid {
        JsonObject m = message(text, true);
        if (!"metadata".equals(m.getValue("type"))) return null;
        if (!(m.getValue("data") instanceof JsonObject data))
            throw new Invalid("a metadata message without a data object");
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : data) {
            Object v = e.getValue();
            if (v instanceof String || v instanceof Number || v instanceof Boolean)
                out.put(e.getKey(), v.toString());
        }
        return out;
    }

    /**
     * The message as a JSON object with a type; {@code quote}: whether what is wrong with it may
     * quote its text.
     */
    private static JsonObject message(String text, boolean quote) throws Invalid {
        String what = quote ? ClientText.quoted(text) : "(" + text.length() + " characters)";
        JsonObject m;
        try {
            m = new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            throw new Invalid("a text message that is no JSON object: " + what);
        }
        if (!(m.getValue("type") instanceof String))
            throw new Invalid("a message without a type: " + what);
        return m;
    }

    private static String text(Object v) {
        return v == null ? null : v.toString();
    }

    @Override
    public String toString() {
        return "hello "
                + mime
                + (user == null ? "" : " from " + user); // the password stays out of logs
    }
}
