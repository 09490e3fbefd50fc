package org.groovecast.host;

import java.util.List;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.OperatorProvider;
import org.groovecast.host.http.HttpFunctions;
import org.groovecast.host.json.JsonFunctions;
import org.groovecast.net.NetOperators;
import org.groovecast.net.Network;
import org.groovecast.net.RtmpOperators;
import org.groovecast.net.TlsOperators;
import org.groovecast.net.control.Commands;
import org.groovecast.net.control.ControlOperators;

/**
 * The operators the engine provides itself, as {@link OperatorProvider}s like a plugin's, so that
 * the function table takes them as it takes a plugin's. {@link #of} is the one list that says where
 * each engine operator is defined ({@code output.harbor}: the network's {@link NetOperators}).
 */
final class EngineOperators {
    /**
     * One of the engine's providers, under {@code owner}: the name that listings, clash messages
     * and the operator reference show, as a plugin's id. {@code resultClass}, when not null, is the
     * engine class its operators return, so the script checker knows its properties.
     */
    record Provider(String owner, OperatorProvider operators, Class<?> resultClass) {
        Provider(String owner, OperatorProvider operators) {
            this(owner, operators, null);
        }
    }

    private EngineOperators() {}

    /** The providers of a station's engine operators; their factories act on these objects. */
    static List<Provider> of(
            Station station, Network network, Commands commands, LiveDecoder decoder) {
        return List.of(
                new Provider("engine", () -> Builtins.specs(station)),
                new Provider("engine", HttpFunctions::specs, HttpFunctions.RESULT),
                new Provider("engine", JsonFunctions::specs),
                new Provider("network", () -> NetOperators.specs(network)),
                new Provider("network", () -> RtmpOperators.specs(network, decoder)),
                new Provider("network", () -> TlsOperators.specs(network)),
                new Provider("control", () -> ControlOperators.specs(commands, network)));
    }
}
