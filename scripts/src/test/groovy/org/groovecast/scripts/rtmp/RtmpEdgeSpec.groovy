package org.groovecast.scripts.rtmp

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.NginxRtmp
import org.groovecast.scripts.support.Wav
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * RTMP players on a real nginx-rtmp edge that pulls from Groovecast's own RTMP server
 * ({@code application live { live on; pull rtmp://127.0.0.1:PORT/live; }}), the way a station
 * hands its RTMP players to edges when they outgrow one machine.
 */
@Tag("integration")
class RtmpEdgeSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    NginxRtmp edge
    List<Process> processes = []

    @Shared
    Path clip = RtmpSpec.flvClip('rtmp-720p.flv', 8)

    def cleanup() {
        processes.each { it.destroyForcibly() }
        edge?.stop()
        station?.stop()
    }

    NginxRtmp startEdge() {
        edge = new NginxRtmp()
        edge.application = "live on; pull rtmp://127.0.0.1:${port}/live;"
        edge.start()
    }

    String origin(String key) {
        "rtmp://127.0.0.1:${port}/live/${key}"
    }

    String onEdge(String key) {
        "rtmp://127.0.0.1:${edge.port}/live/${key}"
    }

    Process ffmpeg(List<String> args) {
        Process p = RtmpSpec.startFfmpeg(dir.resolve("ffmpeg-${processes.size()}.log"), args)
        processes << p
        p
    }

    String log(Process p) {
        Files.readString(dir.resolve("ffmpeg-${processes.indexOf(p)}.log"))
    }

    /** Connections established to Groovecast's RTMP port, from anyone. */
    int connectionsToGroovecast() {
        ['ss', '-Htn', 'state', 'established', "( dport = :${port} )".toString()].execute().text.readLines().count { !it.isBlank() }
    }

    def "two players on an nginx-rtmp edge get what a publisher sent into Groovecast: the same packets of both tracks, through one pull"() {
        given: 'Groovecast as a relay, ffmpeg publishing 720p H.264 and a 440 Hz AAC tone to it, an edge pulling from it'
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1')\n", [:])
        station.start(null)
        startEdge()
        Path source = dir.resolve('source.framemd5')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', clip.toString(), '-c', 'copy', '-f', 'framemd5', source.toString()])
        Process publisher = ffmpeg(['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', origin('test')])
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/test') }

        when: 'two players read 4 s each from the edge'
        List<Process> players = (1..2).collect { i ->
            ffmpeg(['-y', '-t', '4', '-i', onEdge('test'), '-c', 'copy', '-f', 'framemd5', dir.resolve("p${i}.framemd5").toString(),
                    '-c', 'copy', '-f', 'flv', dir.resolve("p${i}.flv").toString()])
        }
        Thread.sleep(2500)
        int pulls = connectionsToGroovecast() - 1 // the publisher's
        boolean ended = players.every { it.waitFor(30, TimeUnit.SECONDS) }
        def sent = RtmpSpec.hashes(source)

        then: 'both played to the end'
        publisher.isAlive()
        ended
        players.every { it.exitValue() == 0 }

        and: 'the edge pulled once for both'
        pulls == 1

        and: 'video and audio, starting on a keyframe, the very packets the publisher sent'
        (1..2).every { i ->
            Path f = dir.resolve("p${i}.flv")
            Media.probe(f, 'stream=codec_name').readLines().sort() == ['aac', 'h264'] &&
                    Media.probe(f, 'stream=width', 'v:0') == '1280' &&
                    Media.probe(f, 'packet=flags', 'v:0').readLines()[0].startsWith('K')
        }
        (1..2).every { i ->
            def got = RtmpSpec.hashes(dir.resolve("p${i}.framemd5"))
            // the clip loops: what a player got is a run of the clip's packets, from the start of its GOP on
            got.video.size() >= 50 && got.audio.size() >= 100 &&
                    Collections.indexOfSubList(sent.video + sent.video, got.video.take(150)) >= 0 &&
                    Collections.indexOfSubList(sent.audio + sent.audio, got.audio.take(250)) >= 0
        }

        and: 'the tone is heard'
        Path heard = dir.resolve('heard.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', dir.resolve('p1.flv').toString(), '-vn', '-ac', '1', '-bitexact', heard.toString()])
        Math.abs(Wav.read(heard).frequency(0.5, 3.0) - 440) < 5
    }

    def "a player on the edge gets the station's own output.rtmp, pushed into Groovecast's server: its tone and its pictures"() {
        given: 'a station that serves RTMP and publishes its 660 Hz tone with video into its own server'
        station = Engine.load('station.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            output.rtmp('${origin('radio')}', ffmpeg(format: 'flv', audio: [codec: 'aac', b: '128k'],
                    video: [codec: 'libx264', preset: 'ultrafast', g: 25]), sine(660, amplitude: 0.3))
        """.stripIndent(), ['video.frame.width': '320', 'video.frame.height': '180', 'video.frame.rate': '25'])
        station.start(null)
        startEdge()
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/radio') }

        when:
        Path got = dir.resolve('edge.flv')
        Process player = ffmpeg(['-y', '-t', '4', '-i', onEdge('radio'), '-c', 'copy', got.toString()])
        boolean ended = player.waitFor(30, TimeUnit.SECONDS)
        Path heard = dir.resolve('heard.wav')
        if (ended) Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', got.toString(), '-vn', '-ac', '1', '-bitexact', heard.toString()])

        then:
        ended
        player.exitValue() == 0
        Media.probe(got, 'stream=codec_name').readLines().sort() == ['aac', 'h264']
        Media.probe(got, 'stream=width', 'v:0') == '320'
        Math.abs(Wav.read(heard).frequency(0.5, 3.0) - 660) < 5
    }

    def "an edge player that comes before the publisher gets the stream when it starts; after the publisher leaves and comes back, a new edge player gets it too"() {
        given: 'Groovecast as a relay and an edge, nothing published yet'
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1')\n", [:])
        station.start(null)
        startEdge()

        when: 'a player asks the edge first; the publisher starts 2 s later'
        Path early = dir.resolve('early.flv')
        Process waiting = ffmpeg(['-y', '-rw_timeout', '20000000', '-t', '3', '-i', onEdge('late'), '-c', 'copy', early.toString()])
        Thread.sleep(2000)
        Process first = ffmpeg(['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', origin('late')])
        boolean earlyEnded = waiting.waitFor(30, TimeUnit.SECONDS)

        and: 'the publisher goes, another comes'
        first.destroy()
        assert first.waitFor(10, TimeUnit.SECONDS)
        assert Net.await(5) { !station.network().rtmpServers()[0].isPublished('live/late') }
        Process second = ffmpeg(['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', origin('late')])
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/late') }
        Path again = dir.resolve('again.flv')
        Process player = ffmpeg(['-y', '-rw_timeout', '20000000', '-t', '3', '-i', onEdge('late'), '-c', 'copy', again.toString()])
        boolean againEnded = player.waitFor(40, TimeUnit.SECONDS)

        then: 'the early player got both tracks'
        earlyEnded
        waiting.exitValue() == 0
        Media.probe(early, 'stream=codec_name').readLines().sort() == ['aac', 'h264']
        (Media.probe(early, 'format=duration') as double) > 2.5

        and: 'and so did the player after the publisher came back'
        second.isAlive()
        againEnded
        player.exitValue() == 0
        Media.probe(again, 'stream=codec_name').readLines().sort() == ['aac', 'h264']
        (Media.probe(again, 'format=duration') as double) > 2.5
    }

    /** The client ports of the connections established to Groovecast's RTMP port now. */
    Set<Integer> peersOfGroovecast() {
        ['ss', '-Htn', 'state', 'established', "( dport = :${port} )".toString()].execute().text.readLines()
                .findAll { !it.isBlank() }.collect { (it.trim().split(/\s+/)[2] =~ /:(\d+)$/)[0][1] as int }.toSet()
    }

    def "an edge player that stays through a publisher's leaving and the next one's coming hears both, on the same pull"() {
        given: 'Groovecast as a relay and an edge; a player on the edge before anyone publishes'
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1')\n", [:])
        station.start(null)
        startEdge()
        Path heard = dir.resolve('heard.wav')
        Process player = ffmpeg(['-y', '-rw_timeout', '20000000', '-i', onEdge('show'), '-vn', '-ac', '1', '-bitexact', '-map_metadata', '-1', '-t', '7', heard.toString()])
        Thread.sleep(1500)

        when: 'a publisher sends 440 Hz for 3 s, leaves; 1 s later another sends 880 Hz'
        Process first = ffmpeg(['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3', '-ac', '2',
                                '-c:a', 'aac', '-f', 'flv', origin('show')])
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/show') }
        Thread.sleep(1000)
        Set<Integer> duringFirst = peersOfGroovecast()
        assert first.waitFor(20, TimeUnit.SECONDS)
        Thread.sleep(1000)
        Process second = ffmpeg(['-re', '-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=44100:duration=8', '-ac', '2',
                                 '-c:a', 'aac', '-f', 'flv', origin('show')])
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/show') }
        Thread.sleep(1000)
        Set<Integer> duringSecond = peersOfGroovecast()
        boolean ended = player.waitFor(30, TimeUnit.SECONDS)
        Wav w = ended && player.exitValue() == 0 ? Wav.read(heard) : null
        println "edge player across publishers: connections to Groovecast ${duringFirst} then ${duringSecond}; " +
                "heard ${w?.seconds} s; ${log(player).readLines().take(5)}"

        then: 'the player heard the first publisher, then the second, without reconnecting'
        ended
        player.exitValue() == 0
        Math.abs(w.frequency(0.3, 2.0) - 440) < 5
        Math.abs(w.frequency(w.seconds - 2.0, w.seconds - 0.2) - 880) < 5

        and: 'through the one pull the edge opened for it: the same connection during both publishers'
        duringFirst.size() == 2
        duringSecond.size() == 2
        (duringFirst.intersect(duringSecond)).size() == 1
    }

    def "an idle edge keeps working: a pull that waited playWaitTimeout is closed, the edge drops its waiting player, and a later player gets the stream on a new pull"() {
        given: 'Groovecast with a short playWaitTimeout, and an edge; nothing published'
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1', playWaitTimeout: 2)\n", [:])
        station.start(null)
        startEdge()

        when: 'a player asks the edge for a key nobody publishes'
        Process early = ffmpeg(['-y', '-rw_timeout', '30000000', '-i', onEdge('idle'), '-c', 'copy', '-f', 'flv', dir.resolve('early.flv').toString()])
        assert Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 1 }
        boolean earlyEnded = early.waitFor(20, TimeUnit.SECONDS)

        then: 'Groovecast closed the waiting pull, and the edge let its player go with it'
        earlyEnded
        Net.await(5) { station.network().rtmpServers()[0].waitingPlayers() == 0 && connectionsToGroovecast() == 0 }

        when: 'the key is published later, and a player asks the edge again'
        Path clip = RtmpSpec.flvClip('rtmp-720p.flv', 8)
        ffmpeg(['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', origin('idle')])
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/idle') }
        Path got = dir.resolve('later.flv')
        Process later = ffmpeg(['-y', '-rw_timeout', '20000000', '-t', '3', '-i', onEdge('idle'), '-c', 'copy', got.toString()])
        boolean laterEnded = later.waitFor(40, TimeUnit.SECONDS)

        then: 'the edge pulled again and the player got both tracks'
        laterEnded
        later.exitValue() == 0
        Media.probe(got, 'stream=codec_name').readLines().sort() == ['aac', 'h264']
        (Media.probe(got, 'format=duration') as double) > 2.5
    }
}
