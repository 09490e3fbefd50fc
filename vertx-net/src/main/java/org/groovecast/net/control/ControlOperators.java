package org.groovecast.net.control;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.NONE;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.STRING;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.net.harbor.http.Route;

/**
 * The script functions of the control interface: the telnet server, the HTTP control endpoint,
 * script commands and interactive variables. The engine's own commands ({@code list}, {@code
 * <id>.skip}...) are registered by the host on the same {@link Commands}.
 */
public final class ControlOperators {
    /** What a script's command function answers where it fails. */
    private static final Object FAILED = new Object();

    private ControlOperators() {}

    public static List<OperatorSpec> specs(Commands commands, ControlPorts net) {
        Variables variables = new Variables(commands);
        Set<Integer> httpPorts = new HashSet<>();
        Set<String> telnetEndpoints = new HashSet<>();
        return List.of(
                OperatorSpec.named("server.telnet")
                        .doc(
                                "A telnet control server: one command per line (help lists them), each answer ending with END.")
                        .named("port", INTEGER, 1234, "the port")
                        .range(0, 65535)
                        .named(
                                "bind",
                                STRING,
                                "127.0.0.1",
                                "the address to listen on; loopback unless told otherwise")
                        .returns(NONE)
                        .create(
                                a -> {
                                    try {
                                        net.addTelnet(
                                                new TelnetServer(
                                                        a.integer("port"),
                                                        a.string("bind"),
                                                        commands));
                                    } catch (IllegalArgumentException e) {
                                        throw new ScriptException(
                                                "server.telnet(): " + e.getMessage());
                                    }
                                    return null;
                                }),
                OperatorSpec.named("server.http")
                        .doc(
                                "The control commands over HTTP at /control/<command> on a harbor port, behind a token.")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .requiredNamed(
                                "token",
                                STRING,
                                "the secret: Authorization: Bearer <token>, or ?token=")
                        .returns(NONE)
                        .create(
                                a -> {
                                    String token = a.string("token");
                                    if (token.isBlank())
                                        throw new ScriptException(
                                                "server.http() needs a token that is not empty");
                                    if (!httpPorts.add(a.integer("port"))) {
                                        throw new ScriptException(
                                                "server.http(): port "
                                                        + a.integer("port")
                                                        + " already serves the control commands");
                                    }
                                    ControlEndpoint endpoint = new ControlEndpoint(commands, token);
                                    for (String method : List.of("GET", "POST")) {
                                        // Commands may run the script's code (server.register): off
                                        // the event loop.
                                        net.harbor(a.integer("port"))
                                                .addRoute(
                                                        new Route(
                                                                        method,
                                                                        ControlEndpoint.PATH,
                                                                        endpoint)
                                                                .mayBlock()
                                                                .guard());
                                    }
                                    return null;
                                }),
                OperatorSpec.named("server.harbor")
                        .doc(
                                "The control commands in telnet syntax over HTTP, as Liquidsoap's server.harbor and AzuraCast "
                                        + "use them: POST the command line as the body, with the key in X-Liquidsoap-Api-Key.")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named(
                                "path",
                                STRING,
                                TelnetEndpoint.DEFAULT_PATH,
                                "the path to POST commands to")
                        .requiredNamed(
                                "key",
                                STRING,
                                "the secret every request carries in X-Liquidsoap-Api-Key")
                        .returns(NONE)
                        .create(
                                a -> {
                                    String key = a.string("key");
                                    if (key.isBlank())
                                        throw new ScriptException(
                                                "server.harbor() needs a key that is not empty");
                                    String path =
                                            a.string("path").startsWith("/")
                                                    ? a.string("path")
                                                    : "/" + a.string("path");
                                    if (path.contains(":") || path.endsWith("*")) {
                                        throw new ScriptException(
                                                "server.harbor(): path must be a plain path, got \""
                                                        + path
                                                        + "\"");
                                    }
                                    if (!telnetEndpoints.add(a.integer("port") + path)) {
                                        throw new ScriptException(
                                                "server.harbor(): port "
                                                        + a.integer("port")
                                                        + " already serves the "
                                                        + "control commands at "
                                                        + path);
                                    }
                                    net.harbor(a.integer("port"))
                                            .addRoute(
                                                    new Route(
                                                                    "POST",
                                                                    path,
                                                                    new TelnetEndpoint(
                                                                            commands, key))
                                                            .mayBlock()
                                                            .guard());
                                    return null;
                                }),
                OperatorSpec.named("server.register")
                        .doc(
                                "A control command of the script's own: server.register('hello') { arg -> 'reply' }.")
                        .positional("name", STRING, "the command name, one word ('dj.name')")
                        .named("usage", STRING, "", "what follows the name, for help: '<name>'")
                        .named("description", STRING, "", "what it does, for help")
                        .positional(
                                "handler",
                                FUNCTION,
                                "called with the text after the name; returns the answer")
                        .calls("the text after the name")
                        .returns(NONE)
                        .create(
                                a -> {
                                    UserFunction handler = a.function("handler");
                                    String name = a.string("name");
                                    boolean added;
                                    try {
                                        added =
                                                commands.add(
                                                        name,
                                                        a.string("usage"),
                                                        a.string("description"),
                                                        argument -> {
                                                            Object r =
                                                                    handler.callOr(
                                                                            FAILED, argument);
                                                            if (r == FAILED)
                                                                throw new Commands.Failed(
                                                                        "the command's function failed; the station's log says where");
                                                            return r == null ? null : r.toString();
                                                        });
                                    } catch (IllegalArgumentException e) {
                                        throw new ScriptException(
                                                "server.register(): " + e.getMessage());
                                    }
                                    if (!added)
                                        throw new ScriptException(
                                                "server.register(): there is already a command "
                                                        + name);
                                    return null;
                                }),
                OperatorSpec.named("server.execute")
                        .doc(
                                "Runs a control command from the script and answers its output, as telnet shows it before END: "
                                        + "server.execute('radio.skip'); the way to serve the commands from a harbor.http.register handler.")
                        .positional(
                                "command",
                                STRING,
                                "the command line: the command, then its argument after a space")
                        .returns(STRING)
                        .create(a -> commands.run(a.string("command")).text()),
                OperatorSpec.named("interactive.float")
                        .doc(
                                "A number the control interface can change (var.set NAME VALUE); read it as v.value.")
                        .positional(
                                "name",
                                STRING,
                                "the variable's name in var.list, var.get and var.set")
                        .positional("default", NUMBER, "the value until it is set")
                        .named(
                                "min",
                                NUMBER,
                                Double.NEGATIVE_INFINITY,
                                "the smallest value accepted")
                        .named(
                                "max",
                                NUMBER,
                                Double.POSITIVE_INFINITY,
                                "the largest value accepted")
                        .returns(ANY)
                        .create(
                                a ->
                                        variable(
                                                variables,
                                                a,
                                                () ->
                                                        new Interactive.FloatVar(
                                                                a.string("name"),
                                                                a.number("default"),
                                                                a.number("min"),
                                                                a.number("max")))),
                OperatorSpec.named("interactive.bool")
                        .doc(
                                "A boolean the control interface can change (var.set NAME true); read it as v.value.")
                        .positional("name", STRING, "the variable's name")
                        .positional("default", BOOLEAN, "the value until it is set")
                        .returns(ANY)
                        .create(
                                a ->
                                        variable(
                                                variables,
                                                a,
                                                () ->
                                                        new Interactive.BoolVar(
                                                                a.string("name"),
                                                                a.bool("default")))),
                OperatorSpec.named("interactive.string")
                        .doc(
                                "A string the control interface can change (var.set NAME some text); read it as v.value.")
                        .positional("name", STRING, "the variable's name")
                        .positional("default", STRING, "the value until it is set")
                        .returns(ANY)
                        .create(
                                a ->
                                        variable(
                                                variables,
                                                a,
                                                () ->
                                                        new Interactive.StringVar(
                                                                a.string("name"),
                                                                a.string("default")))));
    }

    private static Interactive variable(
            Variables variables, Arguments a, Supplier<Interactive> make) {
        String name = a.string("name");
        if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new ScriptException(
                    a.operator() + "() expects a one-word name, got \"" + name + "\"");
        }
        try {
            return variables.add(make.get());
        } catch (IllegalArgumentException e) {
            throw new ScriptException(a.operator() + "(): " + e.getMessage());
        }
    }
}
