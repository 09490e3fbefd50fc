package org.groovecast.scripts.encoding

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.hls.HlsSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.HlsChecker
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Wav
import org.opentest4j.TestAbortedException
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * output.file and output.file.hls on a file system that fills up (a 2 MB tmpfs the test mounts,
 * as root) and on one mounted read-only: the station stays on air, the failure is logged once,
 * writing resumes when there is room again, and nothing already written is lost.
 */
@Tag("integration")
class DiskFaultsSpec extends Specification {
    @TempDir
    Path dir

    Path small
    boolean mounted
    List<Runnable> detach = []

    def setup() {
        small = dir.resolve('small')
        Files.createDirectories(small)
        String failure = sh('mount', '-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small.toString())
        if (failure != null) throw new TestAbortedException("cannot mount a tmpfs (${failure}): these tests need root")
        mounted = true
    }

    def cleanup() {
        detach*.run()
        if (mounted) sh('umount', '-l', small.toString())
    }

    /** Runs a command; null if it succeeded, else what it said. */
    static String sh(String... cmd) {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? null : out ?: "exit ${p.exitValue()}"
    }

    /** What {@code loggerName} logs from now on, until cleanup. */
    ListAppender<ILoggingEvent> capture(String loggerName) {
        ListAppender<ILoggingEvent> logs = new LogList()
        Logger logger = (Logger) LoggerFactory.getLogger(loggerName)
        logger.addAppender(logs)
        logs.start()
        detach << { logger.detachAppender(logs) }
        logs
    }

    static List<String> lines(ListAppender<ILoggingEvent> logs, Level level) {
        logs.list.findAll { it.level == level }*.formattedMessage
    }

    /**
     * Keeps the file system full with one file, as another program filling the disk would: what
     * the outputs free (HLS deletes a segment it could not finish) is taken again at once. The
     * closure returned stops it, deletes the file and returns how much it took at most.
     */
    static Closure<Long> fill(Path file) {
        long[] taken = new long[1]
        boolean[] full = new boolean[1]
        boolean[] running = [true] as boolean[]
        Thread t = Thread.start {
            byte[] chunk = new byte[4096]
            try (def out = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE)) {
                while (running[0]) {
                    try {
                        out.write(java.nio.ByteBuffer.wrap(chunk))
                        taken[0] = Math.max(taken[0], out.size())
                    } catch (IOException noSpace) {
                        assert noSpace.message.contains('No space left on device')
                        full[0] = true
                        Thread.sleep(1)
                    }
                }
            }
        }
        while (!full[0]) Thread.sleep(5)
        return { ->
            running[0] = false
            t.join()
            Files.delete(file)
            taken[0]
        }
    }

    static boolean await(double seconds, Closure<Boolean> condition) {
        long end = System.nanoTime() + (long) (seconds * 1e9)
        while (System.nanoTime() < end) {
            if (condition()) return true
            Thread.sleep(20)
        }
        condition()
    }

    def "a full disk: output.file and output.file.hls log it once, the station and its other outputs play on, writing resumes when there is room, nothing written is lost"() {
        given:
        def fileLogs = capture('org.groovecast.core.FileOutput')
        def hlsLogs = capture('org.groovecast.ffmpeg.hls.HlsVariant')
        Station st = Engine.load('full.groovy', """
            def s = sine(440, amplitude: 0.3)
            output.file(wav(), '${small}/rec.wav', s)
            output.file.hls('${small}/hls', [a: aac(bitrate: 64)], s, segmentDuration: 1, segments: 3)
            output.file(wav(), '${dir}/ok.wav', s)
        """)
        Path rec = small.resolve('rec.wav')
        Path playlist = small.resolve('hls/a.m3u8')
        def checker = new HlsChecker(small.resolve('hls'))

        when: 'about two seconds are written'
        st.start(null)
        long start = System.nanoTime() // the clocks run from here
        def stopWatching = HlsSpec.watch(checker, playlist)
        assert await(10) { Files.exists(rec) && Files.size(rec) > 300_000 && checker.versions }
        byte[] before = Files.readAllBytes(rec)
        byte[] prefix = Arrays.copyOfRange(before, 80, before.length) // the header is rewritten at close

        and: 'the disk fills up, and stays full'
        def emptyDisk = fill(small.resolve('filler'))
        Thread.sleep(1000) // what was in flight settles
        long sizeDuringFault = Files.size(rec)
        def playlistDuringFault = Files.readString(playlist)
        Thread.sleep(2500)
        long sizeLaterInFault = Files.size(rec)
        def playlistLaterInFault = Files.readString(playlist)
        int errorsDuringFault = lines(fileLogs, Level.ERROR).size() + lines(hlsLogs, Level.ERROR).size()

        and: 'there is room again'
        long filler = emptyDisk()
        boolean grew = await(3) { Files.size(rec) > sizeLaterInFault + 100_000 }
        boolean newSegments = await(4) { checker.versions.last().segments.any { it.discontinuity && !playlistLaterInFault.contains(it.uri) } }
        Thread.sleep(1000)
        stopWatching()
        double wall = (System.nanoTime() - start) / 1e9
        st.stop()
        Wav ok = Wav.read(dir.resolve('ok.wav'))
        Wav recording = Wav.read(rec)
        byte[] after = Files.readAllBytes(rec)
        def last = checker.observe(Files.readString(playlist), false)
        println "disk full: filler ${filler} bytes; rec.wav ${before.length} bytes before, ${sizeDuringFault} and " +
                "${sizeLaterInFault} during, ${after.length} after (${recording.seconds} s of ${ok.seconds} s); " +
                "HLS media sequences ${checker.mediaSequences()}, discontinuity sequences ${checker.discontinuitySequences()}; " +
                "logs: ${fileLogs.list*.formattedMessage} ${hlsLogs.list*.formattedMessage}"

        then: 'the other output played on, whole: as long as the run (within three frames), so the clock never waited on the disk'
        Math.abs(ok.seconds - wall) < 0.06
        Math.abs(ok.frequency(ok.seconds - 1.5, ok.seconds - 0.5) - 440) < 3

        and: 'nothing was written while the disk was full, and each output said so once'
        sizeLaterInFault == sizeDuringFault
        playlistLaterInFault == playlistDuringFault
        errorsDuringFault == 2
        lines(fileLogs, Level.ERROR).size() == 1
        lines(fileLogs, Level.ERROR)[0].contains('No space left on device')
        lines(hlsLogs, Level.ERROR).size() == 1
        lines(hlsLogs, Level.ERROR)[0].contains('rendition a cannot write')

        and: 'the recording went on in the same file once there was room: what it held is intact, its header right'
        grew
        Arrays.equals(Arrays.copyOfRange(after, 80, 80 + prefix.length), prefix)
        recording.seconds < ok.seconds - 2
        recording.seconds > ok.seconds - 6
        Math.abs(recording.frequency(recording.seconds - 1.5, recording.seconds - 0.5) - 440) < 3
        lines(fileLogs, Level.WARN).count { it.contains('writing') && it.contains('again') } == 1

        and: 'HLS segments came back after a discontinuity, every playlist version strict RFC 8216 throughout'
        newSegments
        lines(hlsLogs, Level.WARN).count { it.contains('writing again') } == 1
        last.ended
    }

    def "a read-only directory at start is a start error naming the output, its line and the system's reason"() {
        given:
        assert sh('mount', '-o', 'remount,ro', small.toString()) == null

        when:
        Engine.load('readonly.groovy', "def s = sine()\noutput.file(wav(), '${small}/rec.wav', s)\n").start(null)

        then:
        ScriptError file = thrown()
        file.message.startsWith('readonly.groovy:2: ')
        file.message.contains('cannot start')
        file.message.endsWith("${small}/rec.wav: Read-only file system")

        when:
        Engine.load('readonly.groovy', "def s = sine()\n\noutput.file.hls('${small}/hls', [a: aac()], s)\n").start(null)

        then:
        ScriptError hls = thrown()
        hls.message.startsWith('readonly.groovy:3: ')
        hls.message.endsWith("cannot start: cannot write in ${small}/hls: Read-only file system")
    }
}
