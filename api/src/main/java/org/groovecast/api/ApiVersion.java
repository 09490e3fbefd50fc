package org.groovecast.api;

/** The version of this contract; plugins state the range they need in {@code Plugin-Requires}. */
public final class ApiVersion {
    public static final String CURRENT = "0.2.0";

    private ApiVersion() {
    }
}
