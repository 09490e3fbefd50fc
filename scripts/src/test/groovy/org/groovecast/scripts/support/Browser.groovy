package org.groovecast.scripts.support

import com.fasterxml.jackson.databind.ObjectMapper
import java.net.http.HttpClient
import java.net.http.WebSocket
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * Debian's headless Chromium driven over the DevTools protocol (a WebSocket and JSON, no driver
 * to install): open a page, read it with JavaScript, click where a real user would, take a
 * screenshot, and keep every console error and uncaught exception the page produced.
 */
final class Browser implements Closeable {
    static final String CHROMIUM = System.getProperty('groovecast.chromium', '/usr/bin/chromium')
    private static final ObjectMapper JSON = new ObjectMapper()

    private final Process process
    private final Path profile
    private final WebSocket socket
    private final AtomicInteger ids = new AtomicInteger()
    private final Map<Integer, CompletableFuture<Map>> pending = new ConcurrentHashMap<>()
    /** What the page said at error level: console.error, uncaught exceptions, failed loads. */
    final List<String> errors = new CopyOnWriteArrayList<>()

    static boolean available() {
        Files.isExecutable(Path.of(CHROMIUM))
    }

    /** {@code flags}: more of Chromium's switches ({@code --autoplay-policy=no-user-gesture-required}). */
    Browser(int width = 1280, int height = 900, List<String> flags = []) {
        profile = Files.createTempDirectory('groovecast-chromium-')
        process = new ProcessBuilder([CHROMIUM, '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
                '--disable-extensions', '--remote-debugging-port=0', "--user-data-dir=${profile}".toString(),
                "--window-size=${width},${height}".toString()] + flags + ['about:blank']).redirectErrorStream(true).start()
        String endpoint = null
        def out = new BufferedReader(new InputStreamReader(process.inputStream))
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        while (endpoint == null && System.nanoTime() < deadline) {
            String line = out.readLine()
            if (line == null) break
            def m = line =~ /DevTools listening on (ws:\/\/\S+)/
            if (m.find()) endpoint = m.group(1)
        }
        assert endpoint: 'chromium did not start its DevTools endpoint'
        Thread.startVirtualThread { try { while (out.readLine() != null) { } } catch (IOException ignored) { } }
        def http = new URI(endpoint)
        String list = new URL("http://${http.host}:${http.port}/json/list").text
        String page = JSON.readValue(list, List).find { it.type == 'page' }.webSocketDebuggerUrl
        socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(page), new Listener()).get(10, TimeUnit.SECONDS)
        call('Runtime.enable')
        call('Log.enable')
        call('Page.enable')
        call('Network.enable')
        call('Emulation.setDeviceMetricsOverride', [width: width, height: height, deviceScaleFactor: 1, mobile: false])
    }

    /** Sends these headers with every request of the page (HTTP Basic credentials, say). */
    void headers(Map<String, String> headers) {
        call('Network.setExtraHTTPHeaders', [headers: headers])
    }

    void open(String url) {
        call('Page.navigate', [url: url])
        assert await(15) { eval('document.readyState') == 'complete' }: "${url} did not load"
    }

    /** The value of a JavaScript expression in the page. */
    Object eval(String expression) {
        Map r = call('Runtime.evaluate', [expression: expression, returnByValue: true, awaitPromise: true])
        if (r.exceptionDetails) throw new IllegalStateException("${expression}: ${r.exceptionDetails}")
        r.result?.value
    }

    /** Clicks the middle of the element {@code selector} finds, with the mouse, as a person would. */
    void click(String selector) {
        Map box = eval("(() => { const e = document.querySelector(${JSON.writeValueAsString(selector)}); if (!e) return null; " +
                "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); " +
                "return {x: r.x + r.width / 2, y: r.y + r.height / 2, visible: r.width > 0 && r.height > 0}; })()") as Map
        assert box?.visible: "nothing visible to click at ${selector}"
        for (String type : ['mouseMoved', 'mousePressed', 'mouseReleased']) {
            call('Input.dispatchMouseEvent', [type: type, x: box.x, y: box.y, button: 'left', clickCount: 1])
        }
    }

    void screenshot(Path file) {
        Map r = call('Page.captureScreenshot', [format: 'png', captureBeyondViewport: true])
        Files.createDirectories(file.toAbsolutePath().parent)
        Files.write(file, Base64.decoder.decode(r.data as String))
    }

    boolean await(double seconds, Closure<Boolean> condition) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9)
        while (System.nanoTime() < deadline) {
            if (condition()) return true
            Thread.sleep(100)
        }
        condition()
    }

    Map call(String method, Map params = [:]) {
        int id = ids.incrementAndGet()
        def answer = new CompletableFuture<Map>()
        pending[id] = answer
        socket.sendText(JSON.writeValueAsString([id: id, method: method, params: params]), true).get(10, TimeUnit.SECONDS)
        Map r = answer.get(30, TimeUnit.SECONDS)
        if (r.error) throw new IllegalStateException("${method}: ${r.error}")
        r.result as Map
    }

    private void event(Map m) {
        Map p = m.params as Map
        switch (m.method) {
            case 'Runtime.consoleAPICalled':
                if (p.type in ['error', 'assert']) errors << "console.${p.type}: ${p.args*.value ?: p.args*.description}"
                break
            case 'Runtime.exceptionThrown':
                errors << "uncaught: ${p.exceptionDetails?.exception?.description ?: p.exceptionDetails?.text}"
                break
            case 'Log.entryAdded':
                if (p.entry.level == 'error') errors << "log: ${p.entry.text} ${p.entry.url ?: ''}"
                break
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder()

        @Override
        CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data)
            if (last) {
                Map m = JSON.readValue(text.toString(), Map)
                text.setLength(0)
                if (m.id != null) pending.remove(m.id as Integer)?.complete(m)
                else event(m)
            }
            ws.request(1)
            null
        }
    }

    @Override
    void close() {
        try {
            socket?.sendClose(WebSocket.NORMAL_CLOSURE, '')
        } catch (Exception ignored) {
        }
        process.destroy()
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly()
        profile.toFile().deleteDir()
    }
}
