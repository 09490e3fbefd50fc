package org.groovecast.host.script;

import java.util.List;
import java.util.stream.Collectors;

/** All the mistakes found in a script at once, one {@code file:line: message} line each. */
public final class ScriptErrors extends RuntimeException {
    private final List<ScriptError> errors;

    public ScriptErrors(List<ScriptError> errors) {
        super(
                errors.stream().map(ScriptError::getMessage).collect(Collectors.joining("\n")),
                null,
                false,
                false);
        this.errors = List.copyOf(errors);
    }

    public List<ScriptError> errors() {
        return errors;
    }
}
