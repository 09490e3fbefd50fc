package org.groovecast.net.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Comparisons of passwords and tokens that take the same time however much of a guess is right. */
public final class Secrets {
    private Secrets() {}

    /**
     * Whether {@code given} is {@code expected}, in time that depends on the length of {@code
     * given} only, never on how many of its first characters match.
     */
    public static boolean same(String expected, String given) {
        if (expected == null || given == null) return false;
        return MessageDigest.isEqual(
                given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }
}
