package org.groovecast.scripts.rtmp

import ch.qos.logback.classic.Level
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Players that ask for a key nobody publishes wait for it (an nginx-rtmp edge's pull needs that),
 * but not for ever and not in any number: {@code playWaitTimeout} and {@code maxWaitingPlayers}.
 * The players are real ffmpeg processes.
 */
@Tag("integration")
class RtmpPlayWaitSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    List<Process> processes = []

    def cleanup() {
        processes.each { it.destroyForcibly() }
        station?.stop()
    }

    Process player(String key) {
        Process p = RtmpSpec.startFfmpeg(dir.resolve("player-${processes.size()}.log"),
                ['-rw_timeout', '60000000', '-i', "rtmp://127.0.0.1:${port}/live/${key}".toString(), '-f', 'null', '-'])
        processes << p
        p
    }

    String log(Process p) {
        Files.readString(dir.resolve("player-${processes.indexOf(p)}.log"))
    }

    def "a player waiting for a key nobody publishes gets StreamNotFound and is closed after playWaitTimeout"() {
        given:
        def logged = new LogCapture('org.groovecast.net.rtmp.RtmpConnection', Level.INFO)
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1', playWaitTimeout: 2)\n", [:])
        station.start(null)

        when: 'ffmpeg plays a key nobody publishes'
        long start = System.nanoTime()
        Process p = player('nobody')
        assert Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 1 }
        boolean ended = p.waitFor(30, TimeUnit.SECONDS)
        double seconds = (System.nanoTime() - start) / 1e9
        println "waiting player ended after ${seconds} s: ${log(p).readLines().take(3)}"

        then: 'it waited about 2 s, then the server told it the stream is not there and closed'
        ended
        p.exitValue() != 0
        seconds >= 2.0
        seconds < 15
        log(p).contains('was not published within 2.0 s')
        Net.await(5) { station.network().rtmpServers()[0].waitingPlayers() == 0 }
        logged.messages().any { it.contains('nobody published live/nobody within 2.0 s (playWaitTimeout)') }

        cleanup:
        logged?.close()
    }

    def "the wait is counted only while nobody publishes: a player whose publisher comes in time plays on"() {
        given:
        station = Engine.load('relay.groovy', "rtmp.server(port: ${port}, bind: '127.0.0.1', playWaitTimeout: 3)\n", [:])
        station.start(null)
        Path clip = RtmpSpec.flvClip('rtmp-720p.flv', 8)

        when: 'a player waits 1 s, then a publisher streams for longer than playWaitTimeout'
        Process p = player('late')
        assert Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 1 }
        Thread.sleep(1000)
        Process publisher = RtmpSpec.startFfmpeg(dir.resolve('publisher.log'),
                ['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv', "rtmp://127.0.0.1:${port}/live/late".toString()])
        processes << publisher
        assert Net.await(10) { station.network().rtmpServers()[0].isPublished('live/late') }
        Thread.sleep(5000)

        then: 'it plays on, no longer counted as waiting'
        p.isAlive()
        station.network().rtmpServers()[0].waitingPlayers() == 0
    }

    def "past maxWaitingPlayers a new waiting player is refused at once, logged once; a freed place takes the next"() {
        given:
        def logged = new LogCapture('org.groovecast.net.rtmp.RtmpServer', Level.INFO)
        station = Engine.load('relay.groovy',
                "rtmp.server(port: ${port}, bind: '127.0.0.1', playWaitTimeout: 0, maxWaitingPlayers: 2)\n", [:])
        station.start(null)

        when: 'two players wait, then two more ask'
        List<Process> waiting = (1..2).collect { player("k${it}") }
        assert Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 2 }
        List<Process> refused = (3..4).collect { player("k${it}") }
        boolean refusedEnded = refused.every { it.waitFor(10, TimeUnit.SECONDS) }

        then: 'the two past the cap were told at once and closed; the first two still wait'
        refusedEnded
        refused.every { it.exitValue() != 0 && log(it).contains('players wait for keys already') }
        waiting.every { it.isAlive() }
        station.network().rtmpServers()[0].waitingPlayers() == 2
        logged.messages().count { it.contains('refusing more') } == 1

        when: 'one waiting player leaves: a place is free again'
        waiting[0].destroy()
        assert waiting[0].waitFor(10, TimeUnit.SECONDS)
        assert Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 1 }
        Process next = player('k5')

        then: 'the next one waits'
        Net.await(10) { station.network().rtmpServers()[0].waitingPlayers() == 2 }
        next.isAlive()
        logged.messages().any { it.contains('2 were refused') }

        cleanup:
        logged?.close()
    }
}
