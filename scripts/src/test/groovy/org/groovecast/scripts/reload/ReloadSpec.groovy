package org.groovecast.scripts.reload

import java.nio.ByteBuffer
import java.nio.channels.SelectionKey
import java.nio.channels.Selector
import java.nio.channels.SocketChannel
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.StationReloader
import org.groovecast.scripts.live.LiveInputSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Reloading a running station's script: listeners stay connected, a broken script changes nothing. */
// alone (scripts/pom.xml): it measures the gap 50 listeners hear across reloads (< 1 s) while it
// compiles scripts and serves them, which takes both cores for a while
@Tag("integration")
@Tag("alone")
class ReloadSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()

    String station(int freq) {
        """
        def s = sine(${freq}, amplitude: 0.3)
        output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: ${port}, burst: 0)
        def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
        output.harbor(mp3(bitrate: 128), mksafe(live), mount: 'dj', port: ${port}, burst: 0)
        """.stripIndent()
    }

    /** 50 listeners read by one selector; remembers each one's longest silence. */
    static final class Listeners implements Runnable {
        final List<SocketChannel> channels = []
        final long[] last
        final long[] worstGap
        final long[] bytes
        volatile boolean stop

        Listeners(int port, int n) {
            last = new long[n]
            worstGap = new long[n]
            bytes = new long[n]
            n.times {
                def c = SocketChannel.open(new InetSocketAddress('127.0.0.1', port))
                c.write(ByteBuffer.wrap("GET /radio HTTP/1.0\r\n\r\n".bytes))
                c.configureBlocking(false)
                channels << c
            }
        }

        void run() {
            Selector sel = Selector.open()
            channels.eachWithIndex { c, i -> c.register(sel, SelectionKey.OP_READ, i) }
            ByteBuffer buf = ByteBuffer.allocate(65536)
            long start = System.nanoTime()
            Arrays.fill(last, start)
            while (!stop) {
                sel.select(50)
                long now = System.nanoTime()
                for (SelectionKey k : sel.selectedKeys()) {
                    int i = k.attachment() as int
                    buf.clear()
                    int r = ((SocketChannel) k.channel()).read(buf)
                    if (r < 0) { k.cancel(); continue }
                    if (r > 0) {
                        worstGap[i] = Math.max(worstGap[i], now - last[i])
                        last[i] = now
                        bytes[i] += r
                    }
                }
                sel.selectedKeys().clear()
            }
            long now = System.nanoTime()
            last.eachWithIndex { long t, int i -> worstGap[i] = Math.max(worstGap[i], now - t) }
            sel.close()
            channels*.close()
        }
    }

    def "three reloads under 50 listeners and a live DJ, one with a syntax error: nobody is dropped, no gap over a second, the new graph is heard"() {
        given:
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, station(440))
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        def listeners = new Listeners(port, 50)
        Thread reader = Thread.start { listeners.run() }
        Process dj = LiveInputSpec.sourceClient(port, 'secret', 30, 1000)
        Thread.sleep(1500)

        when:
        Files.writeString(script, station(660))
        boolean first = reloader.reload()
        Thread.sleep(1500)
        Files.writeString(script, station(660) + "\nsine(\n")
        boolean broken = reloader.reload()
        Thread.sleep(1500)
        Files.writeString(script, station(880))
        boolean third = reloader.reload()
        Thread.sleep(1500)
        long[] before = listeners.bytes.clone()
        Thread.sleep(1000)
        long[] after = listeners.bytes.clone()
        Path heard = dir.resolve('heard.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '2', '-i', "http://127.0.0.1:${port}/radio".toString(),
                   '-ac', '1', '-ar', '44100', '-bitexact', heard.toString()])
        Path djHeard = dir.resolve('dj.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '2', '-i', "http://127.0.0.1:${port}/dj".toString(),
                   '-ac', '1', '-ar', '44100', '-bitexact', djHeard.toString()])
        boolean djConnected = dj.isAlive()
        dj.destroy()
        listeners.stop = true
        reader.join()

        then:
        first
        !broken
        third
        (0..<50).every { after[it] > before[it] } // every listener still receiving
        listeners.worstGap.max() < 1_000_000_000L
        Math.abs(Wav.read(heard).frequency(0.3, 1.7) - 880) < 5
        'the live DJ on input.harbor stayed connected and is on air'
        djConnected
        Math.abs(Wav.read(djHeard).frequency(1.0, 1.9) - 1000) < 5

        cleanup:
        reloader?.stop()
    }

    def "reloads leave nothing of the stations they replaced: neither their graphs nor their scripts' classes"() {
        given: 'outputs that reloads keep (their predecessor), callbacks and closures of the script'
        Path script = dir.resolve('station.groovy')
        String text = """
            def s = sine(440, amplitude: 0.3).tracks(duration: 1)
            s.onTrack { m -> log.debug("track ${'$'}{m}") }
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: ${port}, burst: 0)
            output.file(wav(), '${dir.resolve('rec.wav')}', s)
            output.file.hls('${dir.resolve('hls')}', [a: aac(bitrate: 64)], s)
            """.stripIndent()
        Files.writeString(script, text)
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        List<java.lang.ref.WeakReference> replaced = []

        when: 'five reloads'
        5.times { i ->
            Thread.sleep(300)
            def old = reloader.current()
            replaced << new java.lang.ref.WeakReference(old) << new java.lang.ref.WeakReference(old.scriptClass())
            Files.writeString(script, text.replace('440', "${450 + i}"))
            assert reloader.reload()
        }
        boolean gone = Net.await(10) { System.gc(); replaced.every { it.get() == null } }

        then: 'every replaced station and its script class are collectable'
        gone

        cleanup:
        reloader?.stop()
    }

    def "a reload keeps a named playlist's track on air: same title, the position goes on"() {
        given:
        Path a = Media.tones('reload-a.wav', [440], 20, 'a', ['-c:a', 'pcm_s16le'])
        Path b = Media.tones('reload-b.wav', [660], 20, 'b', ['-c:a', 'pcm_s16le'])
        Path script = dir.resolve('station.groovy')
        String v1 = """
            def music = playlist(['${a}', '${b}'], mode: 'normal', id: 'music')
            output.harbor(mp3(bitrate: 128), mksafe(music), mount: 'radio', port: ${port})
        """.stripIndent()
        Files.writeString(script, v1)
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        Thread.sleep(3000)
        def before = reloader.current().graph().sources().find { it.id() == 'music' }
        String titleBefore = before.lastMetadata().title

        when: 'the output changes, the playlist keeps its name'
        Files.writeString(script, v1.replace('bitrate: 128', 'bitrate: 96'))
        boolean ok = reloader.reload()
        Thread.sleep(500)
        def after = reloader.current().graph().sources().find { it.id() == 'music' }

        then:
        ok
        after != before
        titleBefore == 'a'
        after.lastMetadata().title == 'a'
        after.remaining() > 0
        after.remaining() < 17.2 * 44100 // 20 s track, about 3.5 s played: it did not start again

        cleanup:
        reloader?.stop()
    }

    def "groovecast reload asks the running station over its control socket; with nothing there it says so"() {
        given:
        int control = Net.freePort()
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, "server.telnet(port: ${control})\n" + station(440))
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()

        when:
        Files.writeString(script, "server.telnet(port: ${control})\n" + station(660))
        def asked = Engine.cli('reload', '--port', control as String)
        boolean reloaded = Net.await(10) { reloader.lastReload() != null }
        def nobody = Engine.cli('reload', '--port', Net.freePort() as String)

        then:
        asked.code == 0
        asked.out.contains('Reloading')
        reloaded
        reloader.lastReload().kept() == ["output.harbor :${port}/radio".toString(), "output.harbor :${port}/dj".toString()]
        nobody.code == 1
        nobody.err.contains('cannot reach the station')

        cleanup:
        reloader?.stop()
    }

    def "a reload onto a port that is taken changes nothing: the station on air keeps serving; a later reload binds it"() {
        given:
        def taken = new ServerSocket(0)
        int other = taken.localPort
        Path script = dir.resolve('station.groovy')
        String v1 = "output.harbor(mp3(bitrate: 128), sine(440), mount: 'radio', port: ${port})\n"
        String v2 = v1 + "output.harbor(mp3(bitrate: 128), sine(660), mount: 'b', port: ${other})\n"
        Files.writeString(script, v1)
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()

        when:
        Files.writeString(script, v2)
        boolean refused = !reloader.reload()
        String radio = Net.raw(port, "GET /radio HTTP/1.0\r\n\r\n", 1000)
        taken.close()
        boolean bound = reloader.reload()
        String radioAfter = Net.raw(port, "GET /radio HTTP/1.0\r\n\r\n", 1000)
        String b = Net.raw(other, "GET /b HTTP/1.0\r\n\r\n", 1000)

        then:
        refused
        radio.startsWith('HTTP/1.0 200')
        bound
        radioAfter.startsWith('HTTP/1.0 200')
        b.startsWith('HTTP/1.0 200')

        cleanup:
        taken?.close()
        reloader?.stop()
    }

    def "a stop racing a reload stops whichever station ends up on air, at once, and frees its port"() {
        given: 'how long a reload takes here, so that the stops land before, during and after the swap'
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, station(440))
        def probe = new StationReloader(script, Engine.plugins().functions(), [:])
        probe.start()
        Files.writeString(script, station(660))
        long t0 = System.nanoTime()
        assert probe.reload()
        long reloadMs = (System.nanoTime() - t0).intdiv(1_000_000)
        probe.stop()
        List<Map> runs = []

        when: 'six times each, a reload starts and a stop follows after 0 to 110 % of that'
        for (double share : [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.1]) {
            6.times {
                Files.writeString(script, station(440))
                def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
                reloader.start()
                Thread.sleep(100)
                Files.writeString(script, station(660))
                Boolean reloaded = null
                Thread reload = Thread.start { reloaded = reloader.reload() }
                Thread.sleep((long) (share * reloadMs))
                long asked = System.nanoTime()
                Thread stop = Thread.start { reloader.stop() }
                stop.join(5000)
                reload.join(5000)
                boolean onAirStopped = reloader.current().awaitStopped(java.time.Duration.ofSeconds(5))
                runs << [share: share, stopMs: (System.nanoTime() - asked).intdiv(1_000_000), stopReturned: !stop.alive,
                         reloadReturned: !reload.alive, reloaded: reloaded, onAirStopped: onAirStopped, portFree: portFree()]
                if (!onAirStopped) reloader.current().stop() // free the port for the next run
            }
        }
        println "reload ${reloadMs} ms; outcomes: " + runs.countBy { "${it.share}: ${it.reloaded ? 'swapped' : 'abandoned'}" }

        then: 'the stop returned within 5 s, the station on air (old or new) stopped and let its port go'
        runs.findAll { !(it.stopReturned && it.reloadReturned && it.onAirStopped && it.portFree && it.stopMs < 5000) } == []
    }

    private boolean portFree() {
        try {
            new ServerSocket(port).close()
            true
        } catch (IOException e) {
            false
        }
    }
}
