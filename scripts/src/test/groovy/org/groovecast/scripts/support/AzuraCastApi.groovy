package org.groovecast.scripts.support

import com.fasterxml.jackson.databind.ObjectMapper
import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import java.nio.charset.StandardCharsets
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicReference

/**
 * A stand-in for AzuraCast's internal API, on the JDK's HTTP server, for the AzuraCast-shaped
 * stations (the Groovy one and the Liquidsoap one): every call recorded (path, key, body, when);
 * nextsong answers the song armed in {@link #nextSong}, once; auth knows dj1 (password secret,
 * shown as DJ One; user:password in the password as AzuraCast reads it); everything else answers
 * OK. {@link #fault} makes every call fail the way an API in trouble does, until it is set back to
 * null.
 */
final class AzuraCastApi {
    static final ObjectMapper JSON = new ObjectMapper()

    /** How the API fails: an HTTP 500, an answer later than any caller waits, a body that is not JSON. */
    static final String ERROR_500 = '500'
    static final String TIMEOUT = 'timeout'
    static final String MALFORMED = 'malformed'

    /** How long a call waits in {@link #TIMEOUT}: more than the stations' HTTP timeouts (2 s). */
    static final long TIMEOUT_MS = 3_000

    final List<Map> calls = new CopyOnWriteArrayList<>()
    /** The URI nextsong gives at its next call; '' for none. */
    final AtomicReference<String> nextSong = new AtomicReference<>('')
    /** null, or one of {@link #ERROR_500}, {@link #TIMEOUT}, {@link #MALFORMED}. */
    final AtomicReference<String> fault = new AtomicReference<>()

    // AzuraCast's PHP answers nextsong and auth in JSON ({"uri": ...}, {"allow": false}); the Groovy
    // station's lib/azuracast.groovy reads nextsong's bare URI and a refusal as false.
    private final boolean liquidsoapAnswers
    private final HttpServer server

    /** Started on a free port of 127.0.0.1; {@code liquidsoapAnswers} for the shapes azuracast.liq parses. */
    AzuraCastApi(boolean liquidsoapAnswers) {
        this.liquidsoapAnswers = liquidsoapAnswers
        server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        // each call on a thread of its own: one left waiting (TIMEOUT) holds no other
        server.executor = Executors.newVirtualThreadPerTaskExecutor()
        server.createContext('/api/') { HttpExchange exchange -> answer(exchange) }
        server.start()
    }

    /** The base URL the station's API calls go under: {@code URL/nextsong}, {@code URL/feedback}... */
    String getUrl() {
        "http://127.0.0.1:${server.address.port}/api"
    }

    void stop() {
        server.stop(0)
    }

    static Object parse(String text) {
        JSON.readValue(text, Object)
    }

    /** The calls to {@code path} made after {@code since} (System.nanoTime) and before {@code until}. */
    List<Map> callsTo(String path, long since = 0, long until = Long.MAX_VALUE) {
        calls.findAll { it.path == path && it.at >= since && it.at < until }
    }

    private void answer(HttpExchange exchange) {
        String path = exchange.requestURI.path.substring('/api/'.length())
        String body = exchange.requestBody.getText('UTF-8')
        String failing = fault.get()
        def parsed = null
        try {
            parsed = body ? parse(body) : null
        } catch (IOException ignored) {
            parsed = [unparsed: body]
        }
        calls << [path: path, key: exchange.requestHeaders.getFirst('X-Liquidsoap-Api-Key'), at: System.nanoTime(),
                  body: parsed, fault: failing]
        int status = 200
        String text
        if (failing == ERROR_500) {
            status = 500
            text = '{"error":"Internal Server Error"}'
        } else if (failing == MALFORMED) {
            text = '{"uri": "annotate:title=\\"Cut Off'
        } else {
            if (failing == TIMEOUT) Thread.sleep(TIMEOUT_MS)
            text = regular(path, parsed)
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8)
        try {
            exchange.responseHeaders.add('Content-Type', 'application/json')
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length)
            exchange.responseBody.withCloseable { it.write(bytes) }
        } catch (IOException ignored) {
            // the caller gave up waiting (TIMEOUT)
        }
    }

    private String regular(String path, def body) {
        if (path == 'nextsong') {
            String uri = nextSong.getAndSet('')
            return liquidsoapAnswers ? JSON.writeValueAsString([uri: uri]) : uri
        }
        if (path == 'auth') {
            // as AzuraCast's DjAuthCommand: a client that can send only a password sends user:password in it
            String user = body instanceof Map ? body.user : null
            String password = body instanceof Map ? body.password ?: '' : ''
            if (user in [null, '', 'source'] && password.contains(':')) {
                user = password.substring(0, password.indexOf(':'))
                password = password.substring(password.indexOf(':') + 1)
            }
            boolean allow = user == 'dj1' && password == 'secret'
            if (allow) return '{"allow":true,"username":"dj1","display_name":"DJ One"}'
            return liquidsoapAnswers ? '{"allow":false}' : 'false'
        }
        liquidsoapAnswers ? 'true' : 'OK'
    }
}
