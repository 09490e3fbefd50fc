package org.groovecast.liquidsoap.types;

import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters of a track's format ({@code channels=2} for {@code pcm(stereo)}, a video's
 * size...), some not known yet. Two formats met by the checker are merged, as Liquidsoap's content
 * formats are: a parameter both set must agree, then both are the same format, which learns the
 * parameters each knew (so a source encoded in stereo and in mono is refused).
 */
final class ContentFormat {
    private final Map<String, String> params;
    private ContentFormat merged;

    ContentFormat(Map<String, String> params) {
        this.params = new TreeMap<>(params);
    }

    private ContentFormat root() {
        ContentFormat f = this;
        while (f.merged != null) f = f.merged;
        return f;
    }

    Map<String, String> params() {
        return root().params;
    }

    /** Merges the two; false (and nothing changed) when a parameter disagrees. */
    boolean merge(ContentFormat other) {
        ContentFormat a = root();
        ContentFormat b = other.root();
        if (a == b) return true;
        for (var e : a.params.entrySet()) {
            String v = b.params.get(e.getKey());
            if (v != null && !v.equals(e.getValue())) return false;
        }
        b.params.putAll(a.params);
        a.merged = b;
        return true;
    }

    /** An unmerged copy, for a type instantiated afresh. */
    ContentFormat copy() {
        return new ContentFormat(params());
    }

    /**
     * As Liquidsoap prints it: {@code stereo}, {@code mono}, {@code channels=6}, {@code width=..}.
     */
    String describe() {
        Map<String, String> p = params();
        StringBuilder b = new StringBuilder();
        for (var e : p.entrySet()) {
            if (!b.isEmpty()) b.append(',');
            if (e.getKey().equals("channels")) {
                b.append(
                        switch (e.getValue()) {
                            case "1" -> "mono";
                            case "2" -> "stereo";
                            case "6" -> "5.1";
                            default -> "channels=" + e.getValue();
                        });
            } else {
                b.append(e.getKey()).append('=').append(e.getValue());
            }
        }
        return b.toString();
    }
}
