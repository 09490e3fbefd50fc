package org.groovecast.scripts.control

import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.host.script.ScriptErrors
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Telnet
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The control interface: telnet and /control/ over HTTP, with real sockets against a running station. */
// alone (scripts/pom.xml): it times the other clients' answers (< 300 ms) while a slow command runs;
// a whole spec, so that its earlier features have warmed the paths it times, as they always have
@Tag("integration")
@Tag("alone")
class ControlSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Telnet telnet

    def cleanup() {
        telnet?.close()
        station?.stop()
    }

    Station start(String script) {
        station = Engine.load('control.groovy', script.replace('PORT', port.toString()).replace('DIR', dir.toString()))
        station.start(null)
        station
    }

    Telnet telnet() {
        telnet = new Telnet(port)
    }

    /** Peak of channel 0 over [from, to) seconds, as a share of full scale. */
    static double peak(Wav w, double from, double to) {
        int a = (int) (from * w.sampleRate)
        int b = Math.min(w.frames, (int) (to * w.sampleRate))
        int max = 0
        for (int i = a; i < b; i++) max = Math.max(max, Math.abs((int) w.samples[0][i]))
        max / 32767d
    }

    def "a lufs meter's levels and a normalizer's gain are readable over telnet"() {
        given:
        start('''
            server.telnet(port: PORT)
            output.dummy(normalize(lufs(sine(1000, amplitude: 0.1), id: 'meter'), id: 'norm'))
        ''')
        def t = telnet()
        Thread.sleep(3500)

        when:
        Map<String, String> meter = t.cmd('meter.readings').readLines().collectEntries { it.split('=', 2) as List }
        Map<String, String> norm = t.cmd('norm.readings').readLines().collectEntries { it.split('=', 2) as List }

        then: 'a 0.1 sine at 1 kHz on both channels reads about -20 LUFS; the normalizer lifts it by about 6 dB to -14'
        Math.abs((meter.momentary as double) + 20) < 1.5
        Math.abs((meter.shortTerm as double) + 20) < 1.5
        Math.abs((meter.integrated as double) + 20) < 1.5
        Math.abs((norm.gain as double) - 6) < 1.5
        t.cmd('help').readLines().any { it.startsWith('meter.readings ') }
    }

    def "telnet: help, list, uptime, version and script commands; an unknown command errs and the connection goes on; quit closes"() {
        given: 'a station whose only socket is the telnet server'
        start('''
            server.telnet(port: PORT)
            server.register('hello', usage: '<name>', description: 'greets') { arg -> "hello ${arg}" }
            output.dummy(sine(440, id: 'tone'), id: 'out')
        ''')
        def t = telnet()

        when:
        List<String> help = t.cmd('help').readLines()

        then:
        ['list', 'uptime', 'version', 'quit', 'var.list', 'var.get <name>', 'var.set <name> <value>', 'hello <name>',
         'tone.skip', 'tone.metadata', 'tone.remaining', 'out.skip'].every { c -> help.any { it.startsWith(c + ' ') } }
        help.find { it.startsWith('hello <name>') }.endsWith('greets')

        and:
        t.cmd('list').readLines().containsAll(['tone : sine', 'out : output.dummy'])
        t.cmd('nonsense') == 'ERROR: unknown command, type help'
        t.cmd('tone.nonsense') == 'ERROR: unknown command, type help'
        t.cmd('hello world') == 'hello world'
        t.cmd('uptime') ==~ /0d 00h 00m \d\ds/
        t.cmd('version').startsWith('Groovecast ')
        t.cmd('tone.remaining') == '-1'
        t.cmd('help tone.skip') == 'tone.skip\nends the current track of tone'
        t.cmd('help nothing').startsWith('ERROR: no command nothing')
        t.cmd('\r\n  \r\nhello blank lines') == 'hello blank lines' // blank lines get no answer

        when:
        String bye = t.cmd('quit')

        then:
        bye == 'Bye!'
        t.closedByServer()

        and: 'other connections are served; a line over 64 KiB is refused and the connection goes on'
        new Telnet(port).withCloseable { it.cmd('x' * 70_000) + ' / ' + it.cmd('hello again') } ==
                'ERROR: line over 65536 bytes / hello again'
    }

    def "telnet: a pushed request plays, <id>.queue lists what waits, <id>.metadata shows what plays"() {
        given:
        Path mp3 = Media.mp3('control-pushed.mp3', [440], 3, 'Pushed Tone')
        start("""
            def requests = request.queue(id: 'requests')
            def waiting = request.queue(id: 'waiting')
            server.telnet(port: PORT)
            output.file(wav(), 'DIR/out.wav', mksafe(requests))
        """)
        def t = telnet()

        expect: 'silence until something is pushed'
        t.cmd('requests.metadata') == ''
        t.cmd('requests.queue') == ''

        when:
        Thread.sleep(500)
        String pushed = t.cmd("requests.push ${mp3}")

        then: 'push answers the request id'
        pushed ==~ /\d+/
        Net.await(5) { t.cmd('requests.metadata').readLines().contains('title=Pushed Tone') }
        t.cmd('requests.push') == 'ERROR: requests.push expects a uri'

        when: 'a queue that nothing plays is given two requests'
        String one = t.cmd('waiting.push /tmp/one.mp3')
        String two = t.cmd('waiting.push annotate:title="Two":/tmp/two.mp3')

        then: 'it keeps them in order, each with its id'
        (two as int) == (one as int) + 1
        t.cmd('waiting.queue') == "${one} /tmp/one.mp3\n${two} annotate:title=\"Two\":/tmp/two.mp3"

        when:
        Thread.sleep(1000)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'silence first, then the pushed tone'
        peak(w, 0, 0.3) == 0
        Math.abs(w.frequency(w.seconds - 0.8, w.seconds - 0.1) - 440) < 5
    }

    def "telnet and methods: <id>.remove takes a waiting or prepared request out, .flush empties, .flush_and_skip also ends the track"() {
        given:
        Path a = Media.mp3('control-q-a.mp3', [440], 10, 'Queue A')
        Path b = Media.mp3('control-q-b.mp3', [660], 10, 'Queue B')
        Path c = Media.mp3('control-q-c.mp3', [880], 10, 'Queue C')
        start("""
            def requests = request.queue(id: 'requests')
            def other = request.queue(id: 'other')
            def idle = request.queue(id: 'idle')
            def r1 = idle.push('/tmp/1.mp3')
            def r2 = idle.push('/tmp/2.mp3')
            def r3 = idle.push('/tmp/3.mp3')
            log.info("methods: \${idle.remove(r2)} \${idle.remove(r2)} \${idle.queue().collect { e -> "\${(e.rid as int) - (r1 as int)} \${e.uri}" }}")
            log.info("flushed: \${idle.flush()} \${idle.queue()}")
            server.register('other.fas') { arg -> other.flushAndSkip(); 'ok' }
            requests.onTrack { m -> log.info("requests: \${m.title}") }
            other.onTrack { m -> log.info("other: \${m.title}") }
            server.telnet(port: PORT)
            output.file(wav(), 'DIR/out.wav', mksafe(requests))
            output.file(wav(), 'DIR/other.wav', mksafe(other))
        """)
        def t = telnet()

        expect: 'the methods answer as the commands do'
        station.scriptLog().recent().containsAll(['info: methods: true false [0 /tmp/1.mp3, 2 /tmp/3.mp3]', 'info: flushed: 2 []'])

        when: 'A plays, B is prepared as the next track, C waits'
        String ra = t.cmd("requests.push ${a}")
        assert Net.await(5) { t.cmd('requests.metadata').readLines().contains('title=Queue A') }
        String rb = t.cmd("requests.push ${b}")
        String rc = t.cmd("requests.push ${c}")
        assert Net.await(5) { t.cmd('requests.queue') == "${rb} ${b}\n${rc} ${c}" }

        then: 'removing the prepared B leaves C next; a second remove or a bad id errs'
        t.cmd("requests.remove ${rb}") == 'OK'
        t.cmd('requests.queue') == "${rc} ${c}"
        t.cmd("requests.remove ${rb}") == "ERROR: No such request in my queue: ${rb}"
        t.cmd('requests.remove soon') == 'ERROR: requests.remove expects a request id, got "soon"'

        when: 'flush: C goes, A plays on'
        String flushed = t.cmd('requests.flush')
        Thread.sleep(300)

        then:
        flushed == 'Done'
        t.cmd('requests.queue') == ''
        t.cmd('requests.metadata').readLines().contains('title=Queue A')
        t.cmd("requests.push ${c}") ==~ /\d+/

        when: 'flush_and_skip: the pushed C goes and A ends at once; the method does the same on the other queue'
        t.cmd("other.push ${b}")
        t.cmd("other.push ${c}")
        assert Net.await(5) { t.cmd('other.metadata').readLines().contains('title=Queue B') }
        Thread.sleep(500)
        String skipped = t.cmd('requests.flush_and_skip')
        String skippedOther = t.cmd('other.fas')
        Thread.sleep(1500)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))
        Wav o = Wav.read(dir.resolve('other.wav'))

        then: 'A (10 s) ended early and nothing followed; on the other queue the same after B'
        skipped == 'Done'
        skippedOther == 'ok'
        peak(w, w.seconds - 1.2, w.seconds) == 0
        peak(o, o.seconds - 1.2, o.seconds) == 0
        Math.abs(w.frequency(w.seconds - 2.2, w.seconds - 1.8) - 440) < 5
        station.scriptLog().recent().findAll { it.startsWith('info: requests: ') || it.startsWith('info: other: ') } ==
                ['info: requests: Queue A', 'info: other: Queue B']
    }

    def "telnet: <id>.skip ends the track at once and <id>.remaining counts down"() {
        given:
        Path a = Media.mp3('control-long-a.mp3', [440], 10, 'Long A')
        Path b = Media.mp3('control-long-b.mp3', [660], 10, 'Long B')
        start("""
            def music = request.queue(id: 'music', queue: ['${a}', '${b}'])
            server.telnet(port: PORT)
            output.file(wav(), 'DIR/out.wav', mksafe(music))
        """)
        def t = telnet()

        when:
        assert Net.await(5) { t.cmd('music.metadata').readLines().contains('title=Long A') }
        Thread.sleep(1000)
        double left = t.cmd('music.remaining') as double
        String skipped = t.cmd('music.skip')

        then:
        left > 7 && left < 9.5
        skipped == 'Done'
        Net.await(2) { t.cmd('music.metadata').readLines().contains('title=Long B') }
        (t.cmd('music.remaining') as double) > 9

        when:
        Thread.sleep(1000)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the file went from A to B long before A would have ended'
        w.seconds < 6
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(w.seconds - 0.8, w.seconds - 0.1) - 660) < 5
    }

    def "interactive variables: var.set changes the gain that amplify applies, as a variable or through a function"() {
        given:
        start('''
            def vol = interactive.float('volume', 1.0, min: 0, max: 2)
            def gain = interactive.float('gain', 1.0)
            def live = interactive.bool('live', false)
            def title = interactive.string('title', 'none')
            server.telnet(port: PORT)
            server.register('live') { arg -> live.value ? "on air: ${title.value}" : 'off air' }
            output.file(wav(), 'DIR/direct.wav', amplify(vol, sine(440, amplitude: 0.5)))
            output.file(wav(), 'DIR/function.wav', amplify({ -> gain.value }, sine(440, amplitude: 0.5)))
        ''')
        def t = telnet()

        when: 'both gains go from 1 to 0.25 after one second'
        Thread.sleep(1000)
        String set1 = t.cmd('var.set volume 0.25')
        String set2 = t.cmd('var.set gain 0.25')
        Thread.sleep(1000)

        then:
        set1 == 'volume = 0.25'
        set2 == 'gain = 0.25'

        and: 'the values are listed and read back; bad values are refused and change nothing'
        t.cmd('var.list').readLines() == ['gain : float = 0.25', 'live : bool = false', 'title : string = none',
                                          'volume : float = 0.25']
        t.cmd('var.get volume') == '0.25'
        t.cmd('var.set volume 3') == 'ERROR: volume must be between 0.0 and 2.0, got 3.0'
        t.cmd('var.set volume loud') == 'ERROR: volume expects a number, got "loud"'
        t.cmd('var.set volume') == 'ERROR: var.set expects a name and a value'
        t.cmd('var.get nothing').startsWith('ERROR: no interactive variable nothing')
        t.cmd('var.get volume') == '0.25'

        and: 'booleans and strings, read by a script command'
        t.cmd('live') == 'off air'
        t.cmd('var.set live on') == 'live = true'
        t.cmd('var.set title Morning Show') == 'title = Morning Show'
        t.cmd('live') == 'on air: Morning Show'
        t.cmd('var.set live maybe') == 'ERROR: live expects true or false, got "maybe"'

        when:
        station.stop()
        Wav direct = Wav.read(dir.resolve('direct.wav'))
        Wav function = Wav.read(dir.resolve('function.wav'))

        then: 'the sound follows: half scale before, an eighth after'
        [direct, function].every { w ->
            Math.abs(peak(w, 0.1, 0.7) - 0.5) < 0.01 && Math.abs(peak(w, w.seconds - 0.5, w.seconds) - 0.125) < 0.01
        }
    }

    static String http(int port, String method, String target, Map<String, String> headers = [:], String body = '') {
        String head = "${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                headers.collect { k, v -> "${k}: ${v}\r\n" }.join('') +
                (body ? "Content-Length: ${body.bytes.length}\r\n" : '') + '\r\n'
        Net.raw(port, head + body)
    }

    static String body(String response) {
        response.substring(response.indexOf('\r\n\r\n') + 4)
    }

    def "HTTP: /control/<command> with the token as a bearer or in the query; 401 without it"() {
        given:
        start('''
            def vol = interactive.float('volume', 1.0)
            server.http(port: PORT, token: 'secret')
            server.register('echo') { arg -> arg }
            output.dummy(sine(id: 'tone'))
        ''')
        def bearer = [Authorization: 'Bearer secret']

        expect: 'no token, a wrong one: 401, and nothing runs'
        Net.status(http(port, 'GET', '/control/help')) == 401
        Net.status(http(port, 'GET', '/control/help?token=wrong')) == 401
        Net.status(http(port, 'GET', '/control/help', [Authorization: 'Bearer wrong'])) == 401
        Net.status(http(port, 'POST', '/control/var.set', [:], 'volume 0.5')) == 401
        body(http(port, 'GET', '/control/var.get?args=volume&token=secret')) == '1.0\n'

        and: 'the token as a bearer or in the query'
        Net.status(http(port, 'GET', '/control/help', bearer)) == 200
        body(http(port, 'GET', '/control/help', bearer)).contains('tone.skip')
        body(http(port, 'GET', '/control/list?token=secret')).contains('tone : sine')
        body(http(port, 'GET', '/control/echo?args=a+b%26c&token=secret')) == 'a b&c\n'

        and: 'the argument in the POST body'
        body(http(port, 'POST', '/control/var.set', bearer, 'volume 0.5')) == 'volume = 0.5\n'
        body(http(port, 'GET', '/control/var.get?args=volume', bearer)) == '0.5\n'

        and: 'errors have their status'
        Net.status(http(port, 'GET', '/control/nonsense', bearer)) == 404
        body(http(port, 'GET', '/control/nonsense', bearer)) == 'ERROR: unknown command, type help\n'
        Net.status(http(port, 'GET', '/control/var.set?args=volume%20loud', bearer)) == 400
        Net.status(http(port, 'GET', '/control/tone.skip', bearer)) == 200
    }

    def "HTTP: wrong tokens are counted per address; past the limit 429 even with the right one, other addresses unaffected"() {
        given:
        station = Engine.load('control.groovy', """
            server.http(port: ${port}, token: 'secret')
            output.dummy(sine(id: 'tone'))
        """.stripIndent(), ['harbor.maxAuthFailures': '3', 'harbor.authFailureWindow': '3'])
        station.start(null)
        String request = "GET /control/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer %s\r\n\r\n"

        expect: 'three wrong tokens are 401'
        (1..3).every { Net.status(Net.raw(port, String.format(request, 'guess' + it))) == 401 }

        and: 'then the right one is 429 from that address, with when to retry'
        String refused = Net.raw(port, String.format(request, 'secret'))
        Net.status(refused) == 429
        refused.contains('Retry-After: ')

        and: 'another address gets its answer'
        body(Net.rawFrom('127.0.0.2', port, String.format(request, 'secret'))).startsWith('Groovecast ')

        and: 'once the window has passed, the first address too'
        Net.await(5) { Net.status(Net.raw(port, String.format(request, 'secret'))) == 200 }
    }

    static String harbor(int port, String command, Map<String, String> headers = ['X-Liquidsoap-Api-Key': 'k3y']) {
        http(port, 'POST', '/telnet', headers, command)
    }

    def "HTTP in telnet syntax (server.harbor): the command line POSTed with X-Liquidsoap-Api-Key; 401 without it, nothing run, counted toward 429"() {
        given:
        station = Engine.load('control.groovy', """
            def runs = 0
            server.harbor(port: ${port}, key: 'k3y')
            server.register('count') { arg -> runs++; "runs \${runs}" }
            server.register('echo') { arg -> arg }
            output.dummy(sine(id: 'tone'))
        """.stripIndent(), ['harbor.maxAuthFailures': '3', 'harbor.authFailureWindow': '3'])
        station.start(null)

        expect: 'no key, a wrong one: 401, and the command does not run'
        Net.status(harbor(port, 'count', [:])) == 401
        Net.status(harbor(port, 'count', ['X-Liquidsoap-Api-Key': 'k3y-not'])) == 401
        body(harbor(port, 'count')) == 'runs 1\n'

        and: "the answer is telnet's, without END; errors are told in the text, as Liquidsoap's server.harbor does"
        body(harbor(port, 'echo a  b')) == 'a  b\n'
        body(harbor(port, 'tone.skip')) == 'Done\n'
        Net.status(harbor(port, 'nonsense')) == 200
        body(harbor(port, 'nonsense')) == 'ERROR: unknown command, type help\n'
        body(harbor(port, 'help tone.skip')) == 'tone.skip\nends the current track of tone\n'
        Net.status(http(port, 'GET', '/telnet', ['X-Liquidsoap-Api-Key': 'k3y'])) == 404

        and: 'as AzuraCast sends it, with curl'
        ['curl', '-s', '-X', 'POST', '-H', 'X-Liquidsoap-Api-Key: k3y', '--data', 'echo from curl',
         "http://127.0.0.1:${port}/telnet"].execute().text == 'from curl\n'

        and: 'a third wrong key, then even the right one is 429 from that address; another address is answered'
        Net.status(harbor(port, 'count', ['X-Liquidsoap-Api-Key': 'guess'])) == 401
        Net.status(harbor(port, 'count')) == 429
        body(Net.rawFrom('127.0.0.2', port, "POST /telnet HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                "X-Liquidsoap-Api-Key: k3y\r\nContent-Length: 5\r\n\r\ncount")) == 'runs 2\n'
        Net.await(5) { Net.status(harbor(port, 'count')) == 200 }
    }

    def "the same commands answer the same over telnet, server.http, server.harbor and server.execute"() {
        given:
        int telnetPort = Net.freePort()
        start("""
            def vol = interactive.float('volume', 1.0, min: 0, max: 2)
            def q = request.queue(id: 'q')
            def waiting = request.queue(id: 'waiting')
            server.telnet(port: ${telnetPort})
            server.http(port: PORT, token: 'tok')
            server.harbor(port: PORT, key: 'k3y')
            server.register('echo', usage: '<text>', description: 'says it back') { arg -> "echo: \${arg}" }
            server.register('fails') { arg -> throw new IllegalStateException('no') }
            harbor.http.register('/exec', port: PORT, method: 'POST') { req -> server.execute(req.body) }
            output.dummy(mksafe(q), id: 'out')
        """)
        def t = new Telnet(telnetPort)
        def overHttp = { String line ->
            String name = line.split(' ', 2)[0]
            String arg = line.contains(' ') ? line.split(' ', 2)[1] : ''
            body(http(port, 'POST', "/control/${name}", [Authorization: 'Bearer tok'], arg))
        }
        def overHarbor = { String line -> body(harbor(port, line)) }
        // AzuraCast's own shape: its script serves /telnet itself with server.execute
        def overScript = { String line -> body(http(port, 'POST', '/exec', [:], line)) }
        def commands = ['help', 'help echo', 'help nothing', 'version', 'list', 'echo one  two', 'echo',
                        'var.list', 'var.get volume', 'var.set volume 0.5', 'var.get volume', 'var.set volume loud',
                        'var.get nothing', 'q.metadata', 'q.remaining', 'q.skip', 'out.skip', 'waiting.push /tmp/a.mp3',
                        'waiting.queue', 'waiting.push', 'fails', 'nonsense', 'q.nonsense']

        when: 'each command over the three, one after the other'
        def answers = commands.collect { c ->
            [c, t.cmd(c), overHttp(c) - ~/\n$/, overHarbor(c) - ~/\n$/, overScript(c)]
        }
        def uptimes = [t.cmd('uptime'), overHttp('uptime') - ~/\n$/, overHarbor('uptime') - ~/\n$/,
                       overScript('uptime')]

        then: 'the three answers to each are the same'
        answers.each { row ->
            def (String c, String viaTelnet, String viaHttp, String viaHarbor, String viaScript) = row
            if (c.startsWith('waiting.push ')) {
                // a push may answer the request's id, which each push increments: the rest must match
                (viaTelnet, viaHttp, viaHarbor, viaScript) = [viaTelnet, viaHttp, viaHarbor, viaScript]
                        .collect { it.replaceAll(/\d+/, 'N') }
            }
            assert [c, viaHttp] == [c, viaTelnet]
            assert [c, viaHarbor] == [c, viaTelnet]
            assert [c, viaScript] == [c, viaTelnet]
        }
        answers.find { it[0] == 'var.set volume 0.5' }[1] == 'volume = 0.5'
        answers.find { it[0] == 'help' }[1].contains('waiting.push <uri>')
        answers.find { it[0] == 'nonsense' }[1] == 'ERROR: unknown command, type help'
        answers.find { it[0] == 'fails' }[1].startsWith('ERROR: ')
        uptimes.every { it ==~ /0d 00h 00m \d\ds/ }

        cleanup:
        t?.close()
    }

    def "a slow command holds up only its own connection: other telnet clients and HTTP are answered meanwhile, its next line after it"() {
        given: 'one event loop, so that a command blocking it would block every connection'
        int telnetPort = Net.freePort()
        station = Engine.load('control.groovy', """
            server.telnet(port: ${telnetPort})
            server.harbor(port: ${port}, key: 'k3y')
            server.register('slow') { arg -> Thread.sleep(3000); 'slept' }
            server.register('echo') { arg -> arg }
            output.dummy(sine(id: 'tone'))
        """.stripIndent(), ['harbor.eventLoops': '1'])
        station.start(null)
        def slow = new Socket('127.0.0.1', telnetPort)
        slow.soTimeout = 10_000
        def other = new Telnet(telnetPort)

        when: 'a client sends the slow command and another behind it, while others ask for the version'
        long t0 = System.nanoTime()
        slow.outputStream.write('slow\r\necho after\r\n'.bytes)
        Thread.sleep(200)
        def latencies = (1..5).collect {
            long a = System.nanoTime()
            assert other.cmd('version').startsWith('Groovecast ')
            assert body(harbor(port, 'echo hi')) == 'hi\n'
            Thread.sleep(150)
            (System.nanoTime() - a) / 1e6 - 150
        }
        def lines = new BufferedReader(new InputStreamReader(slow.inputStream))
        def answer = (1..4).collect { lines.readLine() }
        double answeredAfter = (System.nanoTime() - t0) / 1e9

        then: 'the others were answered at once; the slow one after its 3 s, then the line after it'
        latencies.every { it < 300 }
        answer == ['slept', 'END', 'after', 'END']
        answeredAfter > 2.9

        cleanup:
        slow?.close()
        other?.close()
    }

    def "mistakes in control functions are script errors with their line"() {
        when:
        Engine.load('control.groovy', script)

        then: 'found when the script compiles or when it runs, each with its line'
        RuntimeException e = thrown()
        e instanceof ScriptError || e instanceof ScriptErrors
        e.message == expected

        where:
        script                                                                     | expected
        "def s = sine()\noutput.dummy(amplify('loud', s))"                          | 'control.groovy:2: amplify() expects a number or a function for factor, got String "loud"'
        "output.dummy(amplify({ -> 'x' }, sine()))"                                 | 'control.groovy:1: amplify(): the factor function returned x, not a number'
        "server.http(port: 8000)\noutput.dummy(sine())"                             | 'control.groovy:1: server.http() needs token: (a string)'
        "server.harbor(port: 8000)\noutput.dummy(sine())"                           | 'control.groovy:1: server.harbor() needs key: (a string)'
        "server.harbor(port: 8000, key: ' ')\noutput.dummy(sine())"                 | 'control.groovy:1: server.harbor() needs a key that is not empty'
        "server.harbor(key: 'k')\nserver.harbor(key: 'j', path: 'telnet')\noutput.dummy(sine())" | 'control.groovy:2: server.harbor(): port 8000 already serves the control commands at /telnet'
        "interactive.float('v', 1)\ninteractive.bool('v', true)\noutput.dummy(sine())" | 'control.groovy:2: interactive.bool(): there is already an interactive variable v'
        "interactive.float('v', 5, max: 2)\noutput.dummy(sine())"                   | 'control.groovy:1: interactive.float(): v must be between -Infinity and 2.0, got 5.0'
        "server.register('list') { a -> a }\noutput.dummy(sine())"                  | 'control.groovy:1: server.register(): there is already a command list'
        "server.register('two words') { a -> a }\noutput.dummy(sine())"             | 'control.groovy:1: server.register(): a command name must be one word, got "two words"'
    }
}
