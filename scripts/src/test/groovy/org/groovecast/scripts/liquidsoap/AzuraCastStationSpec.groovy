package org.groovecast.scripts.liquidsoap

import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.host.script.ClosureFunction
import org.groovecast.scripts.support.AzuraCastApi
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.HeardTones
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * scripts/azuracast/station.liq, a station in the shape AzuraCast's ConfigWriter generates, with
 * scripts/azuracast/runtime.liq in the shape of its azuracast.liq, run unchanged against real
 * peers: icecast2 fed MP3 and AAC, ffmpeg as the DJ's source client and as a listener of the
 * icecast mounts, and AzuraCastApi standing in for AzuraCast's API. Checked by ear (each playlist,
 * request, the DJ and the error file is a tone of its own), by the titles icecast shows, and by the
 * calls the station makes to the API.
 */
// alone (scripts/pom.xml): it pushes requests and a DJ at wall-clock times and looks for each in a
// recording of the stream from that time on, which holds while the stream keeps within about a
// second of the wall clock, as AzuraCastStyleSpec.
@Tag("integration")
@Tag("alone")
class AzuraCastStationSpec extends Specification {
    static final String KEY = 'azuracast-station-key'
    static final Map<String, Integer> TONES = [morning: 660, jingle: 880, general: 440, rock: 550, next: 1100,
                                               request: 990, interrupt: 770, dj: 330, error: 220]

    @TempDir
    Path dir

    Icecast icecast
    AzuraCastApi api
    Station station
    Process listener
    Thread watcher
    final int apiPort = Net.freePort()
    final int djPort = Net.freePort()

    def cleanup() {
        watcher?.interrupt()
        listener?.destroyForcibly()
        station?.stop()
        api?.stop()
        icecast?.kill()
    }

    /** The station's directory as AzuraCast lays it out: media/, playlists/, config/, temp/, hls/. */
    Path stationDir(boolean withPlaylists) {
        Path base = dir.resolve('station')
        Path media = Files.createDirectories(base.resolve('media'))
        TONES.each { name, freq ->
            if (name != 'dj') Files.copy(Media.mp3("azuracast-station-${name}-3s.mp3", [freq], 3, name), media.resolve("${name}.mp3"))
        }
        ['config', 'temp', 'hls', 'playlists'].each { Files.createDirectories(base.resolve(it)) }
        writePlaylists(base, withPlaylists)
        base
    }

    /** The playlists as AzuraCast writes them: annotate:...:media:PATH lines; empty ones to begin with if asked. */
    static void writePlaylists(Path base, boolean filled) {
        Map<String, String> lines = [
                playlist_morning_show: 'annotate:title="Morning Show",artist="AzuraCast",song_id="s-morning",media_id="1",playlist_id="3":media:morning.mp3',
                playlist_default     : 'annotate:title="General Rotation",artist="AzuraCast",song_id="s-general",media_id="2",playlist_id="1":media:general.mp3',
                playlist_rock        : 'annotate:title="Rock Block",artist="AzuraCast",song_id="s-rock",media_id="3",playlist_id="2":media:rock.mp3',
                playlist_jingles     : 'annotate:title="Hourly Jingle",artist="AzuraCast",jingle_mode="true",playlist_id="4":media:jingle.mp3']
        lines.each { name, line ->
            Path tmp = base.resolve("playlists/${name}.m3u.tmp")
            Files.writeString(tmp, filled ? "#EXTM3U\n${line}\n" : '#EXTM3U\n')
            Files.move(tmp, base.resolve("playlists/${name}.m3u"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE)
        }
    }

    /** icecast2 with no burst on the station's mounts: a listener's recording starts when it joins. */
    Icecast startIcecast() {
        icecast = new Icecast()
        icecast.configExtra = ['/radio.mp3', '/radio.aac'].collect {
            "<mount><mount-name>${it}</mount-name><burst-size>0</burst-size></mount>"
        }.join('')
        icecast.start()
    }

    Station startStation(Path base, String crossfade, String startTime) {
        station = Station.load(Engine.SCRIPTS.resolve('azuracast/station.liq'), Engine.plugins().functions(),
                ['clock.startTime': startTime, 'random.seed': '1'],
                [STATION_DIR: base.toString(), AZURACAST_API_URL: api.url, AZURACAST_API_KEY: KEY,
                 API_PORT: apiPort.toString(), DJ_PORT: djPort.toString(),
                 ICECAST_PORT: icecast.port.toString(), ICECAST_PASSWORD: Icecast.SOURCE_PASSWORD,
                 FALLBACK: base.resolve('media/error.mp3').toString(), CROSSFADE_TYPE: crossfade,
                 AUTODJ_RETRY_DELAY: '2.'])
        station.start(null)
        assert Net.await(15) { icecast.hasMount('/radio.mp3') && icecast.hasMount('/radio.aac') }
        station
    }

    /** ffmpeg recording {@code mount} of icecast to {@code wav}, from now. */
    Process listen(String mount, Path wav) {
        listener = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', "http://127.0.0.1:${icecast.port}${mount}".toString(),
                '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact', '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', wav.toString())
                .redirectErrorStream(true).start()
    }

    /** Stops the listener (SIGTERM: ffmpeg writes the WAV header) and tells what it heard. */
    List<String> heard(Path wav) {
        listener.destroy()
        assert listener.waitFor(10, TimeUnit.SECONDS)
        HeardTones.heard(Wav.read(wav), TONES)
    }

    /** The title icecast shows on {@code mount} now, or null. */
    String mountTitle(String mount) {
        String status = icecast.status()
        def sources = status ? AzuraCastApi.parse(status).icestats.source : null
        (sources instanceof List ? sources : [sources]).find { it?.listenurl?.endsWith(mount) }?.title
    }

    /** Each title icecast shows on {@code mount}, as it changes, collected until the watcher is interrupted. */
    List<String> watchTitles(String mount) {
        List<String> titles = new CopyOnWriteArrayList<>()
        watcher = Thread.startVirtualThread {
            while (!Thread.currentThread().interrupted) {
                String title = mountTitle(mount)
                if (title && (titles.empty || titles.last() != title)) titles << title
                try { Thread.sleep(200) } catch (InterruptedException ignored) { return }
            }
        }
        titles
    }

    /** A command to the station's HTTP API as AzuraCast's PHP sends it: POST /telnet with the key. */
    String command(String text, String key = KEY) {
        def r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:${apiPort}/telnet"))
                .header('X-Liquidsoap-Api-Key', key).POST(HttpRequest.BodyPublishers.ofString(text)).build(),
                HttpResponse.BodyHandlers.ofString())
        "${r.statusCode()} ${r.body().trim()}"
    }

    Process dj(String password, double seconds) {
        new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${TONES.dj}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg',
                "icecast://source:${password}@127.0.0.1:${djPort}/live".toString()).redirectErrorStream(true).start()
    }

    static double first(List<String> heard, String tone, double from = 0) {
        HeardTones.firstHeard(heard, tone, from)
    }

    /** The script's log lines that contain {@code text}. */
    List<String> logged(String text) {
        station.scriptLog().recent().findAll { it.contains(text) }
    }

    def "the generated shape on air: schedule, hourly jingle, AutoDJ through nextsong, both request queues, a DJ logged in by the API and recorded, MP3, AAC and HLS"() {
        given: 'icecast, the API, the station directory; the clock starts on a Wednesday at 09:59:54 UTC, in the morning show'
        startIcecast()
        api = new AzuraCastApi(true)
        Path base = stationDir(true)
        Path air = dir.resolve('air.wav')
        startStation(base, 'normal', '2026-12-02T09:59:54')

        when: 'a listener records the MP3 mount and a watcher reads its titles'
        listen('/radio.mp3', air)
        long t0 = System.nanoTime()
        Closure<Double> now = { -> (System.nanoTime() - t0) / 1e9 }
        Closure<Void> at = { double s -> Thread.sleep(Math.max(0, (long) ((s - now()) * 1000))) }
        List<String> titles = watchTitles('/radio.mp3')

        and: 'at 12 s the API has a next song for the AutoDJ, with AzuraCast cue points'
        at(12)
        api.nextSong.set('annotate:title="Next Song",artist="AzuraCast AutoDJ",song_id="s-next",media_id="7",playlist_id="1",sq_id="101",' +
                'azuracast_autocue="true",autocue_cue_in="0.0",autocue_cue_out="3.0",autocue_fade_in="0.1",autocue_fade_out="0.1":media:next.mp3')
        double armedAt = now()
        long armedNanos = System.nanoTime()

        and: 'at 20 s a listener request goes through the HTTP API, as AzuraCast pushes it; a wrong key is refused'
        at(20)
        String pushed = command('requests.push annotate:title="Requested Song",artist="A Listener",song_id="s-request":media:request.mp3')
        String refused = command('requests.push media:rock.mp3', 'wrong-key')
        double pushedAt = now()

        and: 'at 27 s an interrupting request'
        at(27)
        String interrupted = command('interrupting_requests.push annotate:title="Breaking News",artist="Newsroom":media:interrupt.mp3')
        double interruptedAt = now()

        and: 'at 31 s a DJ the API does not know is refused, then dj1 (user:password in the password) is on air for 8 s'
        at(31)
        Process stranger = dj('dj2:nope', 5)
        boolean strangerEnded = stranger.waitFor(10, TimeUnit.SECONDS)
        double djAt = now()
        Process dj1 = dj('dj1:secret', 8)
        boolean djEnded = dj1.waitFor(20, TimeUnit.SECONDS)
        double djEndedAt = now()

        and: 'the AutoDJ plays on for 6 s'
        at(djEndedAt + 6)
        String aacTitle = mountTitle('/radio.aac')
        List<Path> hlsFiles = Files.list(base.resolve('hls')).withCloseable { it.toList() }
        watcher.interrupt()
        List<String> tones = heard(air)
        station.stop()
        List<Path> recorded = Files.walk(base.resolve('temp')).withCloseable { s -> s.filter { Files.isRegularFile(it) }.toList() }
        println "azuracast station: heard ${tones}"
        println "azuracast station: titles ${titles}; calls ${api.calls.collect { "${it.path} ${it.body}" }}"

        then: 'the morning show in its window only, then the hourly jingle once, without a title of its own'
        first(tones, 'morning') >= 0 && first(tones, 'morning') < 3
        first(tones, 'morning', 12) == -1
        first(tones, 'jingle') >= 2 && first(tones, 'jingle') < 12
        first(tones, 'jingle', first(tones, 'jingle') + 3) == -1
        !titles.any { it.contains('Hourly Jingle') }

        and: 'between them the weighted rotation'
        first(tones, 'general', 6) > 0 || first(tones, 'rock', 6) > 0

        and: "the AutoDJ asked the API for its next song, with the key, and played it within its retry delay and a track"
        api.callsTo('nextsong').size() >= 3
        api.callsTo('nextsong').every { it.key == KEY }
        api.callsTo('nextsong', armedNanos).size() >= 1
        double next = first(tones, 'next', armedAt)
        next > 0 && next < armedAt + 2 + 3 + 2.5
        logged('cues from AzuraCast').size() >= 1

        and: 'the request pushed through the HTTP API played within a track; the wrong key pushed nothing'
        pushed ==~ /200 \d+/
        refused.startsWith('401')
        double request = first(tones, 'request', pushedAt)
        request > 0 && request < pushedAt + 3 + 2.5
        tones.count { it == 'request' } <= 8

        and: 'the interrupting request cut in at once'
        interrupted ==~ /200 \d+/
        double interrupt = first(tones, 'interrupt', interruptedAt)
        interrupt > 0 && interrupt < interruptedAt + 1 + 2

        and: 'the stranger was refused after asking the API; dj1 was on air within its buffer and the fade, told to the API'
        strangerEnded && stranger.exitValue() != 0
        // Groovecast's harbor hands the auth function dj2/nope, split from source/dj2:nope as AzuraCast's API splits it
        api.callsTo('auth').find { it.body.user == 'dj2' && it.body.password == 'nope' || it.body.password == 'dj2:nope' }
        djEnded && dj1.exitValue() == 0
        double live = first(tones, 'dj', djAt)
        live > 0 && live < djAt + 1 + 1 + 2
        api.callsTo('djon').find { it.body.user == 'dj1' }
        api.callsTo('djoff').find { it.body.user == 'dj1' }

        and: 'after the DJ, the AutoDJ is back'
        [first(tones, 'general', djEndedAt), first(tones, 'rock', djEndedAt)].any { it > 0 && it < djEndedAt + 4 }

        and: 'the show recorded to one file, moved from its .tmp name when it closed'
        recorded.size() == 1
        recorded[0].parent == base.resolve('temp/dj1')
        recorded[0].fileName.toString() ==~ /stream_\d{8}-\d{6}\.mp3/
        Media.decodedSeconds(recorded[0], 1152) > 5 && Media.decodedSeconds(recorded[0], 1152) < 11

        and: 'icecast showed the titles in the order they played, "artist - title"'
        List<String> order = ['AzuraCast - Morning Show', 'AzuraCast AutoDJ - Next Song', 'A Listener - Requested Song', 'Newsroom - Breaking News']
        titles.containsAll(order)
        order.collect { titles.indexOf(it) } == order.collect { titles.indexOf(it) }.sort()
        aacTitle != null

        and: 'each title went back to the API once, with its ids and the key; the jingle did not'
        List<Map> feedback = api.callsTo('feedback')
        List<String> fed = feedback*.body*.title
        fed.containsAll(['Morning Show', 'Next Song', 'Requested Song', 'Breaking News'])
        !fed.contains('Hourly Jingle')
        feedback.every { it.key == KEY }
        feedback.find { it.body.title == 'Next Song' }.body == [title: 'Next Song', artist: 'AzuraCast AutoDJ', song_id: 's-next',
                                                                  media_id: '7', playlist_id: '1', sq_id: '101']
        (0..<fed.size() - 1).every { fed[it] != fed[it + 1] }

        and: 'the normal crossfade ran between the tracks'
        logged('normal crossfade to').size() >= 5

        and: 'HLS: the segments named by the script, the playlist asked for'
        hlsFiles*.fileName*.toString().contains('live.m3u8')
        hlsFiles*.fileName*.toString().any { it ==~ /aac_hifi_2_\d+_\d+\.ts/ }
    }

    def "the API in trouble (500, no answer, malformed JSON): each episode logged once, the error file then the rotation on air, smart crossfade"() {
        given: 'icecast, an API that answers 500, a station whose playlists are empty yet: only the error file can play'
        startIcecast()
        api = new AzuraCastApi(true)
        api.fault.set(AzuraCastApi.ERROR_500)
        Path base = stationDir(false)
        Path air = dir.resolve('air.wav')
        def engineLog = new LogCapture(ClosureFunction.name)
        // a Saturday afternoon: no morning show, no jingle
        startStation(base, 'smart', '2026-12-05T14:20:00')

        when: 'a listener records the AAC mount'
        listen('/radio.aac', air)
        long t0 = System.nanoTime()
        Closure<Double> now = { -> (System.nanoTime() - t0) / 1e9 }
        Closure<Void> at = { double s -> Thread.sleep(Math.max(0, (long) ((s - now()) * 1000))) }

        and: 'at 5 s the playlists are written (AzuraCast writes them while the station runs) and the API heals'
        at(5)
        writePlaylists(base, true)
        double filledAt = now()
        api.fault.set(null)

        and: 'at 8 s the API stops answering for 7 s; heals for 6 (a call that timed out ends 2 s late); answers malformed JSON for 6; heals'
        at(8)
        api.fault.set(AzuraCastApi.TIMEOUT)
        at(15)
        api.fault.set(null)
        at(21)
        api.fault.set(AzuraCastApi.MALFORMED)
        at(27)
        api.fault.set(null)

        and: 'then it has a next song'
        at(29)
        api.nextSong.set('annotate:title="Next Song",artist="AzuraCast AutoDJ":media:next.mp3')
        double armedAt = now()
        at(armedAt + 8)
        double stoppedAt = now()
        List<String> tones = heard(air)
        Wav wav = Wav.read(air)
        station.stop()
        engineLog.close()
        List<String> apiLines = logged('[azuracast.')
        println "azuracast station, API in trouble: heard ${tones}; logged ${apiLines.findAll { !it.startsWith('info: [azuracast.api] ') || it.contains('again') }}"

        then: 'the error file played while nothing else could, then the rotation as soon as the playlists were there'
        first(tones, 'error') >= 0 && first(tones, 'error') < 3
        double rotation = [first(tones, 'general', filledAt), first(tones, 'rock', filledAt)].findAll { it > 0 }.min()
        rotation != null && rotation < filledAt + 5
        first(tones, 'error', rotation) == -1

        and: 'the stream never stopped: the recording is as long as the wall clock, no second of silence'
        wav.seconds > stoppedAt - 2
        AutocueSpec.longestSilence(wav, 0.5, wav.seconds - 0.5) < 1.0

        and: 'the AutoDJ kept asking through each episode'
        api.calls.findAll { it.path == 'nextsong' && it.fault == AzuraCastApi.ERROR_500 }.size() >= 2
        api.calls.findAll { it.path == 'nextsong' && it.fault == AzuraCastApi.TIMEOUT }.size() >= 2
        api.calls.findAll { it.path == 'nextsong' && it.fault == AzuraCastApi.MALFORMED }.size() >= 2

        and: "each episode of the AutoDJ's calls logged once by the runtime when it began, once when it ended"
        List<String> nextsong = apiLines.findAll { it.contains('] nextsong: ') && !it.contains('POST') && !it.contains('{"uri"') }
        nextsong.size() == 6
        nextsong[0] ==~ /warning: \[azuracast\.api] nextsong: HTTP 500.*/
        nextsong[1] ==~ /info: \[azuracast\.api] nextsong: answers again after \d+ failed calls/
        nextsong[2] ==~ /warning: \[azuracast\.api] nextsong: HTTP 522.*/
        nextsong[3] ==~ /info: \[azuracast\.api] nextsong: answers again after \d+ failed calls/
        nextsong[4] ==~ /warning: \[azuracast\.api] nextsong: bad answer: .*/
        nextsong[5] ==~ /info: \[azuracast\.api] nextsong: answers again after \d+ failed calls/

        and: 'no endpoint logged twice in one episode; nothing escaped the runtime to the engine'
        ['feedback', 'nextsong'].every { String endpoint ->
            List<String> mine = apiLines.findAll { it.contains("] ${endpoint}: ") && (it.startsWith('warning') || it.contains('answers again')) }
            (0..<Math.max(0, mine.size() - 1)).every { !(mine[it].startsWith('warning') && mine[it + 1].startsWith('warning')) }
        }
        engineLog.messages() == []

        and: 'back in health, the next song played'
        double next = first(tones, 'next', armedAt)
        next > 0 && next < armedAt + 2 + 3 + 2.5

        and: 'the smart crossfade weighed both tracks by their loudness'
        List<String> smart = logged('[crossfade] smart: old ')
        smart.size() >= 3
        smart.every { it ==~ /.*smart: old -?[\d.]+ dB, new -?[\d.]+ dB: .*/ }
    }
}
