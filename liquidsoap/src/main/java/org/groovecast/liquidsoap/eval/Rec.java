package org.groovecast.liquidsoap.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A value with fields, Liquidsoap's "methods": {@code "a.mp3".{duration = 3.}} is the string with a
 * field, {@code {a = 1}} is unit with one. The base is never itself a Rec; fields keep the order
 * they were added in (messages sort them, as Liquidsoap prints them).
 */
public final class Rec {
    private final Object base;
    private final Map<String, Object> fields;

    private Rec(Object base, Map<String, Object> fields) {
        this.base = base;
        this.fields = fields;
    }

    /** {@code base} with {@code added} fields on top of those it has. */
    public static Object with(Object base, Map<String, Object> added) {
        if (added.isEmpty()) return base;
        Map<String, Object> all = new LinkedHashMap<>();
        Object plain = base;
        if (base instanceof Rec r) {
            all.putAll(r.fields);
            plain = r.base;
        }
        all.putAll(added);
        return new Rec(plain, Collections.unmodifiableMap(all));
    }

    /** {@code base} with one more field. */
    public static Object with(Object base, String name, Object value) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put(name, value);
        return with(base, one);
    }

    /** A record: unit with these fields. */
    public static Object record(Map<String, Object> fields) {
        return with(Tuple.UNIT, fields);
    }

    public Object base() {
        return base;
    }

    public Map<String, Object> fields() {
        return fields;
    }

    @Override
    public String toString() {
        return Show.value(this);
    }
}
