package org.groovecast.net.control;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Collectors;

/**
 * A station's interactive variables by name, and the commands that reach them: {@code var.list},
 * {@code var.get NAME} and {@code var.set NAME VALUE}.
 */
public final class Variables {
    private final Map<String, Interactive> byName = new ConcurrentSkipListMap<>();

    public Variables(Commands commands) {
        commands.add(
                "var.list",
                "",
                "the interactive variables: name, type and value",
                argument ->
                        byName.values().stream()
                                .map(v -> v.name() + " : " + v.type() + " = " + v)
                                .collect(Collectors.joining("\n")));
        commands.add(
                "var.get",
                "<name>",
                "the value of an interactive variable",
                argument -> find(argument).toString());
        commands.add(
                "var.set",
                "<name> <value>",
                "sets an interactive variable",
                argument -> {
                    String[] nameAndValue = argument.split("\\s+", 2);
                    if (nameAndValue.length < 2)
                        throw new IllegalArgumentException("var.set expects a name and a value");
                    Interactive v = find(nameAndValue[0]);
                    v.set(nameAndValue[1]);
                    return v.name() + " = " + v;
                });
    }

    /** Adds a variable; throws when its name is taken. */
    public <T extends Interactive> T add(T variable) {
        if (byName.putIfAbsent(variable.name(), variable) != null) {
            throw new IllegalArgumentException(
                    "there is already an interactive variable " + variable.name());
        }
        return variable;
    }

    private Interactive find(String name) {
        if (name.isEmpty())
            throw new IllegalArgumentException("which variable? var.list lists them");
        Interactive v = byName.get(name);
        if (v == null)
            throw new IllegalArgumentException(
                    "no interactive variable " + name + ", var.list lists them");
        return v;
    }
}
