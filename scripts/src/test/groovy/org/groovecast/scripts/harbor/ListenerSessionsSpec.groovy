package org.groovecast.scripts.harbor

import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.util.regex.Matcher
import javax.xml.parsers.DocumentBuilderFactory
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Net
import org.w3c.dom.Element
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Listeners as a real icecast2 2.4 reports them, compared with the harbor's: the access log's
 * lines, /admin/stats and /admin/listclients key for key, killclient and moveclients, the admin
 * login; then the client behind a trusted proxy, and an HLS client as a session. The station feeds
 * icecast2 itself (output.icecast), so that both serve the same stream to the same curl listeners.
 */
@Tag("integration")
class ListenerSessionsSpec extends Specification {
    static final HttpClient HTTP = HttpClient.newHttpClient()
    /** Icecast's combined format: address, user, date, request, status, bytes, referer, agent, seconds. */
    static final String LINE =
            /^(\S+) - (\S+) \[(\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4})\] "([^"]*)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" (\d+)$/

    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Icecast icecast
    List<Process> curls = []

    def cleanup() {
        curls.each { it.destroyForcibly() }
        station?.stop()
        icecast?.kill()
    }

    Station start(String script) {
        station = Engine.load('sessions.groovy', script.replace('PORT', port.toString()).replace('DIR', dir.toString())
                .replace('ICE', String.valueOf(icecast?.port)).replace('SRCPW', Icecast.SOURCE_PASSWORD), [:])
        station.start(null)
        station
    }

    /** A station playing one tone at /radio and /radio2, and sending it to icecast2's /ref and /ref2. */
    void stationAndIcecast(String settings = '') {
        icecast = new Icecast().start()
        start("""
            settings.harbor.adminPassword = 'adminpw'
            settings.harbor.accessLog = 'DIR/access.log'
            settings.harbor.accessLog.hashAddresses = false
            ${settings}
            def s = sine(440, amplitude: 0.2)
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: PORT, name: 'Test FM', genre: 'rock', url: 'http://example.org/')
            output.harbor(mp3(bitrate: 128), s, mount: 'radio2', port: PORT)
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ICE, password: 'SRCPW', mount: 'ref',
                    name: 'Test FM', genre: 'rock', url: 'http://example.org/')
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ICE, password: 'SRCPW', mount: 'ref2')
        """)
        assert Net.await(15) { icecast.hasMount('/ref') && icecast.hasMount('/ref2') }
    }

    /** curl as a listener for {@code seconds}, in the background. */
    Process listen(int p, String mount, double seconds, List<String> more = []) {
        Process c = new ProcessBuilder(['curl', '-s', '-o', '/dev/null', '--max-time', seconds.toString()] + more +
                ["http://127.0.0.1:${p}${mount}".toString()]).redirectErrorStream(true).start()
        curls << c
        c
    }

    static HttpResponse<String> get(int p, String target, String user = null, String password = null) {
        def b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:${p}${target}"))
        if (user != null) b.header('Authorization', 'Basic ' + "${user}:${password}".bytes.encodeBase64())
        HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString())
    }

    static HttpResponse<String> admin(int p, String target) {
        get(p, target, 'admin', 'adminpw')
    }

    static Element xml(String text) {
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(text.bytes)).documentElement
    }

    static List<Element> children(Element e, String name = null) {
        def out = []
        for (def n = e.firstChild; n != null; n = n.nextSibling) {
            if (n instanceof Element && (name == null || n.tagName == name)) out << n
        }
        out
    }

    /** The element names under {@code e}, in order. */
    static List<String> keys(Element e) {
        children(e)*.tagName
    }

    static Element source(Element icestats, String mount) {
        children(icestats, 'source').find { it.getAttribute('mount') == mount }
    }

    static List<String> lines(Path log) {
        Files.exists(log) ? Files.readAllLines(log).findAll { !it.isBlank() } : []
    }

    def "a listener's access log line is icecast2's, field for field"() {
        given:
        stationAndIcecast()
        String agent = 'Test "Agent" 1.0 \u00e9'
        List<String> same = ['-A', agent, '-e', 'https://example.org/player?x="1"']

        when: 'the same curl listens to each for two seconds, asking with a token'
        [listen(port, '/radio?token=secret', 2, same), listen(icecast.port, '/ref?token=secret', 2, same)]*.waitFor()
        Path theirs = icecast.dir.resolve('log').resolve('access.log')
        Closure<String> line = { Path log, String mount -> lines(log).find { it.contains(" \"GET ${mount} ") } }
        assert Net.await(10) { line(theirs, '/ref') && line(dir.resolve('access.log'), '/radio') }
        Matcher ice = line(theirs, '/ref') =~ LINE
        Matcher ours = line(dir.resolve('access.log'), '/radio') =~ LINE

        then: 'both lines have the format'
        ice.matches()
        ours.matches()

        and: 'address, user, request (its query left out), status, referer and agent (escaped alike) are the same'
        ours.group(1) == ice.group(1)
        ours.group(2) == ice.group(2)
        ours.group(4) == ice.group(4).replace('/ref', '/radio')
        ours.group(4) == 'GET /radio HTTP/1.1'
        ours.group(5) == ice.group(5)
        ours.group(7) == ice.group(7)
        ours.group(8) == ice.group(8)
        ours.group(8).startsWith('Test .Agent. 1.0 ')

        and: 'the bytes (head included) and seconds are of the same stream for the same time'
        long a = ours.group(6) as long, b = ice.group(6) as long
        a > 0.5 * b && a < 2 * b
        // whole seconds of the clock, as icecast2 counts them; it notices a listener gone a moment later
        (ours.group(9) as int) in 1..3
        (ice.group(9) as int) in 1..4
    }

    def "/admin/stats and /admin/listclients answer icecast2's XML key for key; killclient and moveclients act as its do"() {
        given: 'two listeners on the first mount of each server, one after the other'
        stationAndIcecast()
        [[port, '/radio'], [icecast.port, '/ref']].each { p, mount ->
            ['first', 'second'].eachWithIndex { agent, i ->
                listen(p, mount, 30, ['-A', agent])
                assert Net.await(10) { admin(p, "/admin/listclients?mount=${mount}").body().contains("<Listeners>${i + 1}</Listeners>") }
            }
        }

        // icecast2 counts a listener in its stats a moment after listclients shows it
        assert Net.await(10) {
            children(source(xml(admin(icecast.port, '/admin/stats').body()), '/ref'), 'listeners')[0].textContent == '2'
        }

        when:
        def ourStats = admin(port, '/admin/stats')
        def theirStats = admin(icecast.port, '/admin/stats')
        Element ours = xml(ourStats.body())
        Element theirs = xml(theirStats.body())

        then: 'the server and each source have the same keys, in the same order'
        ourStats.statusCode() == 200
        ourStats.headers().firstValue('content-type').get() == theirStats.headers().firstValue('content-type').get()
        ourStats.body().startsWith('<?xml version="1.0"?>\n<icestats>')
        theirStats.body().startsWith('<?xml version="1.0"?>\n<icestats>')
        keys(ours) == keys(theirs)
        keys(source(ours, '/radio')) == keys(source(theirs, '/ref'))
        ['genre', 'listeners', 'listener_peak', 'server_name', 'server_type', 'server_url', 'bitrate', 'channels',
         'samplerate', 'audio_info', 'max_listeners', 'public', 'slow_listeners'].findAll { k ->
            children(source(ours, '/radio'), k)[0].textContent != children(source(theirs, '/ref'), k)[0].textContent
        }.collect { k -> "${k}: ${children(source(ours, '/radio'), k)[0].textContent} vs ${children(source(theirs, '/ref'), k)[0].textContent}" } == []

        when:
        def ourList = admin(port, '/admin/listclients?mount=/radio')
        def theirList = admin(icecast.port, '/admin/listclients?mount=/ref')
        Element ol = xml(ourList.body()), tl = xml(theirList.body())

        then: 'listclients: the same shape, listener for listener'
        keys(ol) == keys(tl)
        keys(children(ol)[0]) == keys(children(tl)[0])
        children(children(ol)[0], 'listener').collect { keys(it) } == children(children(tl)[0], 'listener').collect { keys(it) }
        children(children(ol)[0], 'listener').collect { children(it, 'UserAgent')[0].textContent } == ['first', 'second']
        children(children(tl)[0], 'listener').collect { children(it, 'UserAgent')[0].textContent } == ['first', 'second']

        when: 'each kills its first listener, then asks again once it is gone'
        String ourId = children(children(children(ol)[0], 'listener')[0], 'ID')[0].textContent
        String theirId = children(children(children(tl)[0], 'listener')[0], 'ID')[0].textContent
        def ourKill = admin(port, "/admin/killclient?mount=/radio&id=${ourId}")
        def theirKill = admin(icecast.port, "/admin/killclient?mount=/ref&id=${theirId}")
        assert Net.await(5) {
            admin(port, '/admin/listclients?mount=/radio').body().contains('<Listeners>1</Listeners>') &&
                    admin(icecast.port, '/admin/listclients?mount=/ref').body().contains('<Listeners>1</Listeners>')
        }
        def ourAgain = admin(port, "/admin/killclient?mount=/radio&id=${ourId}")
        def theirAgain = admin(icecast.port, "/admin/killclient?mount=/ref&id=${theirId}")

        then:
        ourKill.body() == theirKill.body().replace("Client ${theirId}", "Client ${ourId}")
        ourKill.body().contains("<message>Client ${ourId} removed</message><return>1</return>")
        ourAgain.body() == theirAgain.body().replace("Client ${theirId}", "Client ${ourId}")
        ourAgain.body().contains("<message>Client ${ourId} not found</message><return>0</return>")

        when: 'each moves the rest to its second mount'
        def ourMove = admin(port, '/admin/moveclients?mount=/radio&destination=/radio2')
        def theirMove = admin(icecast.port, '/admin/moveclients?mount=/ref&destination=/ref2')

        then:
        ourMove.body() == theirMove.body().replace('/ref2', '/radio2').replace('/ref', '/radio')
        Net.await(5) {
            admin(port, '/admin/listclients?mount=/radio2').body().contains('<UserAgent>second</UserAgent>') &&
                    admin(icecast.port, '/admin/listclients?mount=/ref2').body().contains('<UserAgent>second</UserAgent>')
        }
        admin(port, '/admin/listclients?mount=/radio').body().contains('<Listeners>0</Listeners>')

        and: 'the mistakes are answered alike'
        [['/admin/listclients?mount=/nowhere', '/admin/listclients?mount=/nowhere'],
         ['/admin/listclients', '/admin/listclients'],
         ['/admin/killclient?mount=/radio', '/admin/killclient?mount=/ref'],
         ['/admin/moveclients?mount=/radio2&destination=/nowhere', '/admin/moveclients?mount=/ref2&destination=/nowhere'],
         ['/admin/moveclients?mount=/radio2&destination=/radio2', '/admin/moveclients?mount=/ref2&destination=/ref2']].every { o, t ->
            def a = admin(port, o), b = admin(icecast.port, t)
            a.statusCode() == b.statusCode() && a.body().trim() == b.body().trim()
        }
    }

    def "an admin request without credentials is 401 and nothing else, as icecast2 answers it; wrong ones count toward the 429"() {
        given:
        stationAndIcecast('settings.harbor.maxAuthFailures = 3')
        listen(port, '/radio', 30, ['-A', 'secret-agent'])

        when:
        def ours = get(port, '/admin/listclients?mount=/radio')
        def theirs = get(icecast.port, '/admin/listclients?mount=/ref')

        then:
        ours.statusCode() == 401
        theirs.statusCode() == 401
        ours.headers().firstValue('www-authenticate').get() == theirs.headers().firstValue('www-authenticate').get()
        ours.body() == theirs.body()
        !ours.body().contains('secret-agent')

        when: 'three wrong passwords'
        def wrong = (1..3).collect { get(port, '/admin/stats', 'admin', "guess${it}").statusCode() }

        then: 'then even the right one waits'
        wrong == [401, 401, 401]
        admin(port, '/admin/stats').statusCode() == 429
    }

    def "behind a trusted proxy the client it names is the listener everywhere; a forged header from anyone else is ignored"() {
        given:
        start('''
            settings.harbor.trustedProxies = ['127.0.0.2']
            settings.harbor.adminPassword = 'adminpw'
            settings.harbor.accessLog = 'DIR/access.log'
            settings.harbor.accessLog.hashAddresses = false
            def seen = []
            output.harbor(mp3(bitrate: 64), sine(), mount: 'radio', port: PORT, onConnect: { session -> seen << session.address })
            harbor.http.register('/seen', port: PORT) { req -> seen.sort().join('|') }
        ''')

        when: 'the proxy passes a client on; another peer claims to be someone'
        Socket viaProxy = Net.connectFrom('127.0.0.2', port)
        viaProxy.outputStream.write('GET /radio HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6, 203.0.113.7\r\nUser-Agent: proxied\r\n\r\n'.bytes)
        Socket forger = Net.connectFrom('127.0.0.3', port)
        forger.outputStream.write('GET /radio HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\nUser-Agent: forged\r\n\r\n'.bytes)
        [viaProxy, forger].each { it.inputStream.read(new byte[1024]) }
        assert Net.await(5) { admin(port, '/admin/listclients?mount=/radio').body().contains('<Listeners>2</Listeners>') }
        String listed = admin(port, '/admin/listclients?mount=/radio').body()
        [viaProxy, forger]*.close()
        assert Net.await(10) { lines(dir.resolve('access.log')).size() == 2 }

        then: 'listclients, onConnect and the access log name the proxied client, and the forger as what it is'
        listed.contains('<IP>203.0.113.7</IP><UserAgent>proxied</UserAgent>')
        listed.contains('<IP>127.0.0.3</IP><UserAgent>forged</UserAgent>')
        !listed.contains('6.6.6.6') && !listed.contains('203.0.113.9') && !listed.contains('127.0.0.2')
        Net.await(5) { new URL("http://127.0.0.1:${port}/seen").text == '127.0.0.3|203.0.113.7' }
        lines(dir.resolve('access.log')).collect { it.split(' ')[0] }.sort() == ['127.0.0.3', '203.0.113.7']
    }

    def "an HLS client of the harbor is one session until it stops asking, listed and logged as a listener"() {
        given:
        Files.createDirectories(dir.resolve('hls'))
        start('''
            settings.harbor.adminPassword = 'adminpw'
            settings.harbor.accessLog = 'DIR/access.log'
            def s = sine(440, amplitude: 0.2)
            output.file.hls('DIR/hls', [a: aac(bitrate: 64)], s, segmentDuration: 1, segments: 3)
            harbor.http.static('/hls', 'DIR/hls', port: PORT)
        ''')
        assert Net.await(10) { Files.exists(dir.resolve('hls/a.m3u8')) }
        Closure<HttpResponse<byte[]>> fetch = { String path ->
            HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}/hls/${path}")).header('User-Agent', 'hls-test').build(),
                    HttpResponse.BodyHandlers.ofByteArray())
        }

        when: 'a player polls the playlist and fetches each new segment for three seconds'
        long fetched = 0
        Set<String> seen = [] as Set
        long end = System.nanoTime() + 3_000_000_000L
        while (System.nanoTime() < end) {
            def playlist = fetch('a.m3u8')
            fetched += playlist.body().length
            new String(playlist.body()).readLines().findAll { it && !it.startsWith('#') }.each { seg ->
                if (seen.add(seg)) fetched += fetch(seg).body().length
            }
            Thread.sleep(300)
        }
        String listed = admin(port, '/admin/listclients?mount=/hls').body()

        then: 'one listener for all those requests'
        listed.contains('<Listeners>1</Listeners>')
        listed.contains('<UserAgent>hls-test</UserAgent>')

        when: 'it stops asking'
        assert Net.await(15) { lines(dir.resolve('access.log')).size() == 1 }
        String line = lines(dir.resolve('access.log'))[0]
        Matcher m = line =~ LINE

        then: 'its line: the first request, every byte it was served, the time it was there'
        m.matches()
        m.group(1) ==~ /[0-9a-f]{16}/ // hashed by default
        m.group(4) == 'GET /hls/a.m3u8 HTTP/1.1'
        m.group(6) as long == fetched
        m.group(8) == 'hls-test'
        (m.group(9) as int) in 2..4
        admin(port, '/admin/listclients?mount=/hls').body().contains('<Listeners>0</Listeners>')
    }
}
