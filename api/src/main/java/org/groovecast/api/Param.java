package org.groovecast.api;

/**
 * One parameter of an operator.
 *
 * @param name the name; for named parameters, the script's map key
 * @param type what the script must pass
 * @param defaultValue the value when omitted, or {@code null} when {@code required}
 * @param required whether the script must give it
 * @param doc one line for {@code groovecast plugins info} and the docs
 */
public record Param(
        String name, ValueType type, Object defaultValue, boolean required, String doc) {}
