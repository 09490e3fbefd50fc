package org.groovecast.liquidsoap.eval;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The order in which Liquidsoap lists the keys of a {@code json()} object: it keeps them in an
 * OCaml {@code Hashtbl} (16 buckets to start with, doubled past two keys a bucket) and lists them
 * by folding over it, last first. Keeping the same order here makes {@code json.stringify} of such
 * an object (and {@code yaml.stringify}) write its keys as Liquidsoap does. Not thread-safe.
 */
final class HashtblOrder {
    private List<List<String>> buckets = buckets(16);
    private int size;

    private static List<List<String>> buckets(int n) {
        List<List<String>> b = new ArrayList<>(n);
        for (int i = 0; i < n; i++) b.add(new ArrayList<>());
        return b;
    }

    /** A key added (a new one goes first in its bucket; a known one keeps its place). */
    void add(String key) {
        List<String> bucket = buckets.get(index(key, buckets.size()));
        if (bucket.contains(key)) return;
        bucket.addFirst(key);
        if (++size > 2 * buckets.size()) grow();
    }

    void remove(String key) {
        if (buckets.get(index(key, buckets.size())).remove(key)) size--;
    }

    /** The keys in the order Liquidsoap lists them. */
    List<String> keys() {
        List<String> out = new ArrayList<>(size);
        for (List<String> bucket : buckets) for (String k : bucket) out.addFirst(k);
        return out;
    }

    /** Twice the buckets, each key moved in order to the end of its new bucket. */
    private void grow() {
        List<List<String>> bigger = buckets(buckets.size() * 2);
        for (List<String> bucket : buckets)
            for (String k : bucket) bigger.get(index(k, bigger.size())).add(k);
        buckets = bigger;
    }

    private static int index(String key, int n) {
        return hash(key.getBytes(StandardCharsets.UTF_8)) & (n - 1);
    }

    /** OCaml's {@code Hashtbl.hash} of a string: MurmurHash3's mixing of its bytes, seed 0. */
    static int hash(byte[] s) {
        int h = 0;
        int i = 0;
        for (; i + 4 <= s.length; i += 4) {
            int w =
                    (s[i] & 0xff)
                            | (s[i + 1] & 0xff) << 8
                            | (s[i + 2] & 0xff) << 16
                            | (s[i + 3] & 0xff) << 24;
            h = mix(h, w);
        }
        int rest = s.length & 3;
        if (rest > 0) {
            int w = 0;
            if (rest == 3) w = (s[i + 2] & 0xff) << 16;
            if (rest >= 2) w |= (s[i + 1] & 0xff) << 8;
            w |= s[i] & 0xff;
            h = mix(h, w);
        }
        h ^= s.length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h & 0x3FFFFFFF;
    }

    private static int mix(int h, int d) {
        d *= 0xcc9e2d51;
        d = Integer.rotateLeft(d, 15);
        d *= 0x1b873593;
        h ^= d;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }
}
