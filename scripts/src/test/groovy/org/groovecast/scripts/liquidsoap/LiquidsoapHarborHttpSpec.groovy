package org.groovecast.scripts.liquidsoap

import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.script.ClosureFunction
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * A .liq station with an HTTP API in the shape of AzuraCast's runtime: Liquidsoap 2.4's
 * harbor.http.register behind a logging middleware and a token middleware on
 * x-liquidsoap-api-key, a POST command endpoint that pushes to a request.queue and answers JSON,
 * and server.harbor without a key (guarded by the middlewares, as in Liquidsoap). Spoken to over
 * real HTTP with the JDK's client, and listened to with ffmpeg.
 */
@Tag("integration")
class LiquidsoapHarborHttpSpec extends Specification {
    static final String KEY = 's3cret'

    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    HttpClient client = HttpClient.newHttpClient()

    def cleanup() {
        station?.stop()
    }

    /** The station; the line of {@code let json.parse} in it is {@link #PARSE_LINE}. */
    String script() {
        """\
        let settings.radio = ()
        let settings.radio.api_key = settings.make(description="The key AzuraCast's PHP sends.", "")
        settings.radio.api_key := "${KEY}"
        let radio = ()
        def radio.log_requests(req, res, next)
          next(req, res)
          log(label="http", "#{req.method} #{req.path} #{res.status_code.current()}")
        end
        harbor.http.middleware.register(radio.log_requests)
        def radio.check_token(req, res, next)
          if req.headers["x-liquidsoap-api-key"] != settings.radio.api_key() then
            res.status_code(401)
            res.json({error = "bad key"})
          else
            next(req, res)
          end
        end
        harbor.http.middleware.register(radio.check_token)
        requests = request.queue(id="requests")
        def radio.command(req, res)
          if req.query["name"] == "push" then
            let json.parse ({uri} : {uri : string}) = req.body()
            requests.push(request.create(uri))
            res.json({pushed = uri, queued = list.length(requests.queue())})
          else
            res.status_code(404)
            res.data("no command " ^ req.query["name"])
          end
        end
        harbor.http.register(port=${port}, method="POST", "/api/:name", radio.command)
        server.harbor(port=${port})
        radio = fallback(track_sensitive=false, [requests, sine(amplitude=0.3, 440.)])
        output.harbor(%mp3(bitrate=128), mount="radio", port=${port}, radio)
        """.stripIndent()
    }

    static final int PARSE_LINE = 22

    HttpResponse<String> post(String path, String body, String key = KEY) {
        def b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}${path}"))
                .POST(HttpRequest.BodyPublishers.ofString(body))
        if (key != null) b.header('X-Liquidsoap-Api-Key', key)
        client.send(b.build(), HttpResponse.BodyHandlers.ofString())
    }

    def "a request pushed through the API is heard; a wrong key is 401 and pushes nothing; the commands over server.harbor"() {
        given:
        Path tone = Media.mp3('liq-harbor-http-880.mp3', [880], 20)
        station = Engine.load('api.liq', script())
        station.start(null)

        when: 'no key, then a wrong one'
        def none = post('/api/push', "{\"uri\": \"${tone}\"}", null)
        def wrong = post('/api/push', "{\"uri\": \"${tone}\"}", 'nope')
        def queued = post('/telnet', 'requests.queue')

        then:
        none.statusCode() == 401
        none.body() == '{"error":"bad key"}\n'
        wrong.statusCode() == 401
        queued.statusCode() == 200
        queued.body() == '\n'
        Math.abs(Media.heard(dir.resolve('before.wav'), "http://127.0.0.1:${port}/radio") - 440) < 3

        when: 'the right key'
        def pushed = post('/api/push', "{\"uri\": \"${tone}\"}")
        def unknown = post('/api/dance', '')
        def help = post('/telnet', 'help')
        def helpWrong = post('/telnet', 'help', 'nope')

        then:
        pushed.statusCode() == 200
        pushed.headers().firstValue('content-type').get() == 'application/json; charset=utf-8'
        // queued counts what waits when the handler answers: 1, or 0 when the request was already
        // resolved and on air (the fallback is not track-sensitive), as a loaded CI machine showed
        pushed.body() ==~ /\{"pushed":"${java.util.regex.Pattern.quote(tone.toString())}","queued":[01]\}\n/
        unknown.statusCode() == 404
        unknown.body() == 'no command dance'
        help.statusCode() == 200
        help.body().contains('requests.push')
        helpWrong.statusCode() == 401
        helpWrong.body() == '{"error":"bad key"}\n'
        // the mount's burst still holds the sine from before the push: what comes after it
        Math.abs(Media.heardAfterBurst(dir.resolve('after.wav'), "http://127.0.0.1:${port}/radio") - 880) < 5
    }

    def "a handler that raises answers 500, logged once with the script's place; the station stays on air"() {
        given:
        station = Engine.load('api.liq', script())
        station.start(null)
        def log = new LogCapture(ClosureFunction.name)

        when: 'a body that is not the JSON the handler parses, twice'
        def first = post('/api/push', 'not json')
        def second = post('/api/push', '{"url": 1}')
        log.close()
        def after = post('/api/push', '{"uri": "/nowhere.mp3"}')

        then:
        first.statusCode() == 500
        second.statusCode() == 500
        log.messages().size() == 1
        log.messages()[0].contains("api.liq:${PARSE_LINE}:")
        !log.messages()[0].contains('\tat ')
        after.statusCode() == 200
        Math.abs(Media.heard(dir.resolve('on-air.wav'), "http://127.0.0.1:${port}/radio") - 440) < 3
    }
}
