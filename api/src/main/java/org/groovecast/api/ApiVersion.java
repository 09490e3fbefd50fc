package org.groovecast.api;

/**
 * The version of this contract; plugins state the range they need in {@code Plugin-Requires}. While
 * the major version is 0 the minor one is the breaking digit: 0.3.x is compatible with 0.3.0, not
 * with 0.2.x (the build compares the api with its baseline, see {@code api/pom.xml}).
 */
public final class ApiVersion {
    public static final String CURRENT = "0.3.2";

    private ApiVersion() {}
}
