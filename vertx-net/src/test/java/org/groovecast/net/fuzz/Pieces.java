package org.groovecast.net.fuzz;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Cuts an input the way TCP may: into pieces of 1, 2, 3, 5, 8 ... bytes (Fibonacci, starting over
 * past 1597), so that a target sees the same bytes whole and split at many different points. Fixed
 * rather than chosen by the fuzzer: the seeds stay plain protocol bytes.
 */
public final class Pieces {
    private static final int[] SIZES = {
        1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597
    };

    private Pieces() {}

    /**
     * Hands {@code data} to {@code sink} in pieces, in order; stops early when {@code sink} says
     * so.
     */
    public static void feed(byte[] data, Sink sink) {
        int at = 0;
        for (int i = 0; at < data.length; i = (i + 1) % SIZES.length) {
            int n = Math.min(SIZES[i], data.length - at);
            if (!sink.piece(Arrays.copyOfRange(data, at, at + n))) return;
            at += n;
        }
    }

    /** Receives one piece; returns false to stop (the connection closed). */
    @FunctionalInterface
    public interface Sink {
        boolean piece(byte[] piece);
    }

    /** The same, for a sink that takes everything. */
    public static void feedAll(byte[] data, Consumer<byte[]> sink) {
        feed(
                data,
                p -> {
                    sink.accept(p);
                    return true;
                });
    }
}
