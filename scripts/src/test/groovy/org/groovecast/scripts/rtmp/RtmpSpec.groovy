package org.groovecast.scripts.rtmp

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.NginxRtmp
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The RTMP server with real ffmpeg publishers and players, input.rtmp and output.rtmp. */
@Tag("integration")
class RtmpSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    List<Process> processes = []

    /** 8 s of 720p H.264 (a keyframe every second) + AAC, FLV, made once. */
    @Shared
    Path clip = flvClip('rtmp-720p.flv', 8)

    /** The same at about 14 Mbit/s (lossless): fills a stuck player's socket buffers in seconds. */
    @Shared
    Path heavyClip = flvClip('rtmp-720p-heavy.flv', 8, ['-qp', '0'])

    static Path flvClip(String name, double seconds, List<String> rate = ['-b:v', '2M']) {
        Media.once(name) { Path out ->
            Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', "testsrc2=s=1280x720:r=25:d=${seconds}".toString(),
                       '-f', 'lavfi', '-i', "sine=frequency=440:sample_rate=44100:duration=${seconds}".toString(),
                       '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p'] + rate +
                       ['-c:a', 'aac', '-ac', '2', '-f', 'flv', out.toString()])
        }
    }

    def cleanup() {
        processes.each { it.destroyForcibly() }
        station?.stop()
    }

    /** A relay-only station: the server alone is a whole script (no output, so no clock). */
    Station relay(String extra = '') {
        station = Engine.load('relay.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1'${extra})
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    Process ffmpeg(List<String> args) {
        Process p = startFfmpeg(dir.resolve("ffmpeg-${processes.size()}.log"), args)
        processes << p
        p
    }

    /** ffmpeg with {@code args}, its output to {@code log}; the caller stops it. */
    static Process startFfmpeg(Path log, List<String> args) {
        new ProcessBuilder(['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error'] + args)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start()
    }

    String url(String key = 'test') {
        "rtmp://127.0.0.1:${port}/live/${key}"
    }

    Process publish(Path file, String key = 'test', boolean loop = false) {
        ffmpeg(['-re'] + (loop ? ['-stream_loop', '-1'] : []) + ['-i', file.toString(), '-c', 'copy', '-f', 'flv', url(key)])
    }

    /** framemd5 lines per stream type: codec per stream from the header, then one hash per packet. */
    static Map<String, List<String>> hashes(Path framemd5) {
        Map<Integer, String> types = [:]
        Map<String, List<String>> out = [video: [], audio: []]
        for (String line : Files.readAllLines(framemd5)) {
            def codec = line =~ /^#codec_id (\d+): (\w+)/
            if (codec) {
                types[codec[0][1] as int] = codec[0][2] == 'h264' ? 'video' : 'audio'
                continue
            }
            if (line.startsWith('#') || line.isBlank()) continue
            String[] f = line.split(',')*.trim()
            out[types[f[0] as int]] << f[4] + ':' + f[5] // size and MD5 of the packet
        }
        out
    }

    def "ffmpeg publishes 720p with -c copy; two players get the very same packets, starting on a keyframe, and decode both tracks"() {
        given:
        relay()
        Path source = dir.resolve('source.framemd5')
        assert station.clocks().isEmpty(): 'a relay with no output runs no clock, so idles at no cost'
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', clip.toString(), '-c', 'copy', '-f', 'framemd5', source.toString()])

        when: 'the players join 2 s into the stream'
        Process publisher = publish(clip)
        Thread.sleep(2000)
        List<Process> players = (1..2).collect { i ->
            ffmpeg(['-y', '-i', url(), '-c', 'copy', '-f', 'framemd5', dir.resolve("p${i}.framemd5").toString(),
                    '-c', 'copy', '-f', 'flv', dir.resolve("p${i}.flv").toString()])
        }
        assert publisher.waitFor(30, TimeUnit.SECONDS)
        players.each { assert it.waitFor(15, TimeUnit.SECONDS) }
        def sent = hashes(source)

        then:
        publisher.exitValue() == 0
        players.every { it.exitValue() == 0 }
        (1..2).every { i ->
            def got = hashes(dir.resolve("p${i}.framemd5"))
            got.video.size() >= 100 && got.audio.size() >= 150 &&
                    Collections.indexOfSubList(sent.video, got.video) >= 0 &&
                    Collections.indexOfSubList(sent.audio, got.audio) >= 0
        }

        and: 'a late player starts on a keyframe, with the sequence headers first (it decodes from its first packet)'
        (1..2).every { i ->
            Path f = dir.resolve("p${i}.flv")
            Media.probe(f, 'packet=flags', 'v:0').readLines()[0].startsWith('K') &&
                    Media.probe(f, 'stream=codec_name').readLines().sort() == ['aac', 'h264'] &&
                    Media.probe(f, 'stream=width', 'v:0') == '1280'
        }
        (1..2).every { i ->
            Process d = new ProcessBuilder('ffmpeg', '-v', 'error', '-i', dir.resolve("p${i}.flv").toString(), '-f', 'null', '-')
                    .redirectErrorStream(true).start()
            String errors = d.inputStream.text
            d.waitFor(30, TimeUnit.SECONDS) && d.exitValue() == 0 && errors.isBlank()
        }
    }

    def "a script with no output that serves nothing is refused with what to add"() {
        when:
        Engine.load('empty.groovy', "def s = sine()\n")

        then:
        org.groovecast.host.script.ScriptError e = thrown()
        e.message.contains('empty.groovy: the script defines no output and serves nothing')
        e.message.contains('rtmp.server()')
    }

    def "rtmp.server refuses eventLoops other than 1 (one loop) or 0 (all of them), with the script's line"() {
        when:
        Engine.load('loops.groovy', "def port = ${port}\nrtmp.server(port: port, bind: '127.0.0.1', eventLoops: 2)\n")

        then:
        org.groovecast.host.script.ScriptError e = thrown()
        e.message.startsWith('loops.groovy:2')
        e.message.contains('eventLoops 2 is neither 1 (one event loop) nor 0')
    }

    def "a killed publisher: its players exit within a second and the key is free again"() {
        given:
        relay()
        Process publisher = publish(clip, 'test', true)
        Thread.sleep(1500)
        Process player = ffmpeg(['-i', url(), '-c', 'copy', '-f', 'null', '-'])
        Thread.sleep(2000)

        when:
        long killed = System.nanoTime()
        publisher.destroyForcibly()
        boolean exited = player.waitFor(3, TimeUnit.SECONDS)
        double after = (System.nanoTime() - killed) / 1e9
        Process again = publish(clip, 'test', true)
        Thread.sleep(1500)

        then:
        exited
        after < 1.0
        again.isAlive()
        Net.await(2) { station.network().rtmpServers()[0].isPublished('live/test') }
    }

    def "a second publisher on a taken key gets NetStream.Publish.BadName; the first streams on without a gap"() {
        given:
        relay()
        Process first = publish(clip, 'test', true)
        Thread.sleep(1000)
        Process player = ffmpeg(['-y', '-t', '5', '-i', url(), '-c', 'copy', '-f', 'framemd5', dir.resolve('p.framemd5').toString()])
        Thread.sleep(1000)

        when:
        Process second = ffmpeg(['-v', 'info', '-re', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', url()])
        boolean refused = second.waitFor(10, TimeUnit.SECONDS)
        String said = Files.readString(dir.resolve("ffmpeg-2.log"))
        assert player.waitFor(20, TimeUnit.SECONDS)
        def got = hashes(dir.resolve('p.framemd5'))

        then:
        refused
        second.exitValue() != 0
        said.contains('BadName') || said.contains('already being published')
        first.isAlive()
        got.video.size() >= 120 // 5 s at 25 fps, less what ffmpeg's -t cut: no gap
    }

    def "a player that stops reading loses frames, then its connection after slowTimeout; the publisher and another player never wait"() {
        given:
        def slowLog = new LogList()
        slowLog.start()
        Logger playerLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.rtmp.RtmpPlayer')
        playerLog.addAppender(slowLog)
        relay(', slowTimeout: 2, playerBuffer: 2097152')
        Process publisher = publish(heavyClip, 'test', true)
        Thread.sleep(1500)
        def stuck = new RtmpBadInputSpec.Client(port, true, 4096)
        stuck.send(RtmpBadInputSpec.CONNECT)
        stuck.send(RtmpBadInputSpec.command('createStream', 2))
        Thread.sleep(300)
        stuck.send(RtmpBadInputSpec.command('play', 3, [5] + RtmpBadInputSpec.amfString('test'), 1))
        Process player = ffmpeg(['-y', '-t', '8', '-i', url(), '-c', 'copy', '-f', 'framemd5', dir.resolve('p.framemd5').toString()])

        when: 'the stuck player never reads (until the server says it dropped it)'
        long t0 = System.nanoTime()
        boolean dropped = Net.await(12) { slowLog.list.any { it.formattedMessage.contains('too slow') } }
        double after = (System.nanoTime() - t0) / 1e9
        boolean closed = stuck.closedWithin(3000)
        assert player.waitFor(20, TimeUnit.SECONDS)
        def got = hashes(dir.resolve('p.framemd5'))

        then: 'dropped after its queue filled and slowTimeout passed'
        dropped
        closed
        after > 1.5
        publisher.isAlive()
        got.video.size() >= 195 // 8 s at 25 fps (a few short of 200 for ffmpeg's -t cut): the other player never waited

        cleanup:
        stuck?.close()
        playerLog?.detachAppender(slowLog)
    }

    def "input.rtmp in a fallback: the station plays the publisher's audio while it is on, the tone before and after"() {
        given:
        Path out = dir.resolve('out.wav')
        station = Engine.load('live.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            def live = input.rtmp(app: 'live', key: 'studio', port: ${port}, buffer: 0.5)
            output.file(wav(), '${out}', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
        """.stripIndent(), [:])
        station.start(null)

        when: 'a publisher streams 880 Hz AAC for 4 s from about 1 s'
        Thread.sleep(1000)
        long t0 = System.nanoTime()
        Process p = ffmpeg(['-re', '-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=44100:duration=4', '-ac', '2',
                            '-c:a', 'aac', '-f', 'flv', url('studio')])
        assert p.waitFor(20, TimeUnit.SECONDS)
        double on = (System.nanoTime() - t0) / 1e9
        Thread.sleep(2500)
        station.stop()
        Wav w = Wav.read(out)

        then:
        p.exitValue() == 0
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(1.0 + 1.8, 1.0 + 3.5) - 880) < 5
        Math.abs(w.frequency(1.0 + on + 1.2, w.seconds - 0.2) - 440) < 5
    }

    def "input.rtmp brings the publisher's pictures into the graph: red then blue while it is on, black from the tone before"() {
        given:
        Path out = dir.resolve('out.ts')
        Path colours = Media.colourClip('rtmp-colours.mkv', 2)
        station = Engine.load('cam.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            def cam = input.rtmp(app: 'live', key: 'cam', port: ${port}, buffer: 0.5)
            output.file(ffmpeg(format: 'mpegts', audio: [codec: 'aac'], video: [codec: 'libx264', preset: 'ultrafast']),
                    '${out}', fallback(trackSensitive: false, cam, sine(440, amplitude: 0.3)))
        """.stripIndent(), ['video.frame.width': '320', 'video.frame.height': '180', 'video.frame.rate': '25'])
        station.start(null)

        when: 'a publisher streams 2 s of red then 2 s of blue from about 1 s'
        Thread.sleep(1000)
        Process p = ffmpeg(['-re', '-i', colours.toString(), '-c', 'copy', '-f', 'flv', url('cam')])
        assert p.waitFor(20, TimeUnit.SECONDS)
        Thread.sleep(1500)
        station.stop()
        List<List<Double>> uv = Media.chroma(out)
        int firstRed = uv.findIndexOf { it[1] > 200 }
        int firstBlue = uv.findIndexOf { it[0] > 200 }
        int lastBlue = uv.findLastIndexOf { it[0] > 200 }

        then:
        p.exitValue() == 0
        uv.take(10).every { Math.abs(it[0] - 128) < 4 && Math.abs(it[1] - 128) < 4 } // the tone's black pictures
        firstRed > 10
        firstBlue > firstRed
        uv.count { it[1] > 200 } >= 35 // about 2 s of red at 25 pictures a second
        lastBlue - firstBlue >= 35
        uv.drop(lastBlue + 1).every { it[0] < 140 } // after the publisher left: black again
    }

    def "output.rtmp pushes to a server that comes up later (backoff), and a player hears it"() {
        given: 'a station pushing AAC in FLV to a port where nothing listens yet'
        station = Engine.load('push.groovy', """
            output.rtmp('${url('pushed')}', ffmpeg(format: 'flv', audio: [codec: 'aac', b: '128k']), sine(660, amplitude: 0.3))
        """.stripIndent(), [:])
        station.start(null)
        Thread.sleep(1500)

        when: 'the relay starts; the push reconnects within its backoff'
        Station server = Engine.load('relay.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            output.dummy(blank())
        """.stripIndent(), [:])
        server.start(null)
        boolean published = Net.await(8) { server.network().rtmpServers()[0].isPublished('live/pushed') }
        Path heard = dir.resolve('heard.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '2', '-i', url('pushed'), '-ac', '1', '-bitexact', heard.toString()])

        then:
        published
        Math.abs(Wav.read(heard).frequency(0.3, 1.8) - 660) < 5

        cleanup:
        server?.stop()
    }

    def "output.rtmp to an nginx-rtmp that stops reading (SIGSTOP): noticed after timeout and logged once, the clock never waits; after SIGCONT the push comes back and a player hears it"() {
        given: 'a station pushing AAC to a private nginx-rtmp, with a 2 s timeout'
        def warnings = new LogList()
        warnings.start()
        Logger reconnectionLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.output.Reconnection')
        reconnectionLog.addAppender(warnings)
        NginxRtmp nginx = new NginxRtmp(port).start()
        station = Engine.load('push.groovy', """
            output.rtmp('${url('pushed')}', ffmpeg(format: 'flv', audio: [codec: 'aac', b: '320k']), sine(660, amplitude: 0.3),
                    timeout: 2)
        """.stripIndent(), [:])
        station.start(null)
        Path before = dir.resolve('before.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '2', '-i', url('pushed'), '-ac', '1', '-bitexact', before.toString()])
        double lagBefore = station.clocks()*.getLag().max()

        when: 'nginx is frozen until the stall is noticed, and 3 s more'
        double maxLag = 0
        def sampler = Thread.startDaemon {
            while (!Thread.currentThread().isInterrupted()) {
                maxLag = Math.max(maxLag, station.clocks()*.getLag().max())
                try {
                    Thread.sleep(50)
                } catch (InterruptedException ignored) {
                    break
                }
            }
        }
        long t0 = System.nanoTime()
        nginx.freeze()
        boolean noticed = Net.await(40) { warnings.list.any { it.formattedMessage.contains('stopped reading') } }
        double after = (System.nanoTime() - t0) / 1e9
        Thread.sleep(3000)

        and: 'thawed'
        nginx.thaw()
        Path heard = dir.resolve('heard.wav')
        Process player = ffmpeg(['-y', '-t', '2', '-i', url('pushed'), '-ac', '1', '-bitexact', heard.toString()])
        boolean played = player.waitFor(45, TimeUnit.SECONDS)
        sampler.interrupt()
        sampler.join()
        List<String> stalls = warnings.list*.formattedMessage.findAll { it.contains('stopped reading') }
        println "output.rtmp stall noticed ${String.format('%.1f', after)} s after SIGSTOP; clock lag at most " +
                "${String.format('%.3f', maxLag)} s; warnings: ${warnings.list*.formattedMessage}"

        then:
        Math.abs(Wav.read(before).frequency(0.3, 1.8) - 660) < 5
        noticed
        after >= 2
        stalls.size() == 1
        stalls[0].contains('no acknowledgement of the') && stalls[0].contains('for 2.0 s') // nginx acknowledges: it is that sign
        maxLag < 0.5 && lagBefore < 0.5

        and: 'the push is back'
        played
        player.exitValue() == 0
        Math.abs(Wav.read(heard).frequency(0.3, 1.8) - 660) < 5

        cleanup:
        reconnectionLog?.detachAppender(warnings)
        nginx?.stop()
    }

    def "output.rtmp refused on a taken key retries with backoff and leaves no connection behind"() {
        given: 'a relay whose live/taken is published by ffmpeg'
        relay()
        Process owner = publish(clip, 'taken', true)
        Thread.sleep(1500)

        when: 'a station pushes to the same key for 8 s (attempts at about 0, 1, 3 and 7 s)'
        Station pusher = Engine.load('push.groovy', """
            output.rtmp('${url('taken')}', ffmpeg(format: 'flv', audio: [codec: 'aac']), sine(660))
        """.stripIndent(), [:])
        pusher.start(null)
        Thread.sleep(8000)
        String connections = ['ss', '-Htn', 'state', 'established', "( dport = :${port} )".toString()].execute().text

        then: 'the owner and at most the attempt in progress: refused attempts were closed'
        owner.isAlive()
        connections.readLines().findAll { !it.isBlank() }.size() <= 2

        cleanup:
        pusher?.stop()
    }
}
