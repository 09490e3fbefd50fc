package org.groovecast.host.request;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.groovecast.api.Metadata;
import org.groovecast.api.Registration;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.host.script.ScriptFiles;

/**
 * A station's request protocols: the built-in {@code annotate:}, {@code file:}, {@code tmp:},
 * {@code http://} and {@code https://}, and those its script adds with {@code protocol.add}. Each
 * station has its own, so a reloaded script has exactly the protocols it declares.
 */
public final class Protocols implements RequestResolver, AutoCloseable {
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9+._-]*");

    /** {@code settings.request.timeout}, read at each request, as a script may change it. */
    private final DoubleSupplier timeout;

    /**
     * The station's script files, known once it compiled: a failing resolver is located in them.
     */
    private final Supplier<ScriptFiles> files;

    private final Map<String, Protocol> protocols = new ConcurrentHashMap<>();
    private final HttpProtocol http;
    private final MetadataResolvers metadataResolvers = new MetadataResolvers();

    /**
     * @param timeout seconds a request may take ({@code settings.request.timeout})
     * @param maxDownload bytes an http(s) download may hold ({@code settings.request.maxDownload})
     */
    public Protocols(
            DoubleSupplier timeout, LongSupplier maxDownload, Supplier<ScriptFiles> files) {
        this.timeout = timeout;
        this.files = files;
        this.http = new HttpProtocol(maxDownload);
        protocols.put("annotate", new Annotate());
        // file:path and file:///path are that path (Liquidsoap's); a missing one fails when it is
        // opened.
        protocols.put(
                "file",
                (name, arg, left) ->
                        List.of(Protocol.Step.of(arg.startsWith("//") ? arg.substring(2) : arg)));
        protocols.put(
                "tmp", (name, arg, left) -> List.of(new Protocol.Step(arg, Metadata.EMPTY, true)));
        protocols.put("http", http);
        protocols.put("https", http);
    }

    /**
     * Declares (or replaces) protocol {@code name}: {@code function} gets the text after {@code
     * name:}, and with {@code takesTimeout} also the seconds left to answer.
     *
     * @param temporary the files its answers lead to are deleted once played
     */
    public void add(String name, UserFunction function, boolean takesTimeout, boolean temporary) {
        if (!NAME.matcher(name).matches()) {
            throw new ScriptException(
                    "protocol.add(): a protocol name is letters, digits, '+', '.', '_' and '-',"
                            + " starting with a letter; got '"
                            + name
                            + "'");
        }
        protocols.put(name, new ScriptProtocol(function, takesTimeout, temporary, files));
    }

    /** How many protocols there are, built-in and declared. */
    public int count() {
        return protocols.size();
    }

    /**
     * Adds a file metadata resolver ({@code decoder.metadata.add}): {@code function} gets the file
     * and its metadata so far as it is about to play, and answers a map of metadata to add.
     */
    public Registration addMetadataResolver(String name, UserFunction function) {
        return metadataResolvers.add(name, function);
    }

    @Override
    public Metadata fileMetadata(String file, Metadata metadata) {
        return metadataResolvers.apply(file, metadata);
    }

    /** The protocol called {@code name} (exactly, else in lower case: {@code HTTP://}), or null. */
    Protocol find(String name) {
        Protocol p = protocols.get(name);
        return p != null ? p : protocols.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public double timeout() {
        return timeout.getAsDouble();
    }

    @Override
    public <T> T resolve(String uri, Path baseDir, double timeout, Opener<T> opener)
            throws IOException {
        return new Resolution<>(this, baseDir, timeout > 0 ? timeout : timeout(), opener).run(uri);
    }

    /** Ends the downloads still running (the station stops). */
    @Override
    public void close() {
        http.close();
    }
}
