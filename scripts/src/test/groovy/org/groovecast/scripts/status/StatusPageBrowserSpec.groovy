package org.groovecast.scripts.status

import com.fasterxml.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Browser
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The status page in a real browser (Debian's headless Chromium): what a station engineer sees and presses. */
@Tag("integration")
class StatusPageBrowserSpec extends Specification {
    static final ObjectMapper JSON = new ObjectMapper()
    static final Path SCREENSHOT = Path.of('target', 'status-page.png')

    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Browser browser
    Process curl

    def cleanup() {
        curl?.destroy()
        browser?.close()
        station?.stop()
    }

    String text(String selector) {
        browser.eval("document.querySelector(${JSON.writeValueAsString(selector)})?.textContent ?? null")
    }

    def "the page loads clean, counts a new listener, plots the clock, and its skip button changes the title within two seconds"() {
        given: 'a station of long songs, a DJ mount, a request queue and a status page with buttons'
        assert Browser.available(): "the browser test needs Debian's chromium (apt-get install -y chromium); .ci/run installs it"
        Path music = Files.createDirectories(dir.resolve('music'))
        ['First Song': 440, 'Second Song': 550, 'Third Song': 660].each { t, f ->
            Files.copy(Media.mp3("browser-${t.replace(' ', '-')}.mp3", [f], 30, t), music.resolve("${t}.mp3"))
        }
        station = Engine.load('radio.groovy', """
            def live = input.harbor('live', port: ${port})
            def requests = request.queue(id: 'requests')
            def music = playlist('${music}', mode: 'normal')
            def radio = fallback(trackSensitive: false, live, requests, music)
            output.harbor(mp3(bitrate: 128), mksafe(radio), mount: 'radio', port: ${port}, id: 'radio', name: 'Groovecast Test FM')
            status.page(port: ${port}, auth: [user: 'admin', password: 'secret'])
        """.stripIndent(), [:])
        station.start(null)
        browser = new Browser()
        browser.headers([Authorization: 'Basic ' + 'admin:secret'.bytes.encodeBase64().toString()])

        when:
        browser.open("http://127.0.0.1:${port}/")

        then: 'the mount, its title, a live link'
        browser.await(5) { text('#link') == 'live' }
        browser.await(5) { text('.card[data-key="radio"] .title')?.contains('Song') }
        text('.card[data-key="radio"] .kind') == 'output.harbor /radio'
        text('#station') == 'radio.groovy'

        when: 'a curl listener connects'
        String before = text('.card[data-key="radio"] .listeners')
        curl = new ProcessBuilder('curl', '-s', '-o', '/dev/null', "http://127.0.0.1:${port}/radio".toString()).start()

        then: 'the count rises'
        before == '0'
        browser.await(3) { text('.card[data-key="radio"] .listeners') == '1' }

        and: "the clock's duty plot has points"
        browser.await(5) { (browser.eval("document.querySelector('#clocks canvas')?.dataset.points ?? '0'") as int) >= 3 }
        text('#clocks .legend .duty') =~ /duty \d+\.\d %/

        when: 'skip is pressed'
        String playing = text('.card[data-key="radio"] .title')
        long t0 = System.nanoTime()
        browser.click('.card[data-key="radio"] button.skip')

        then: 'another title shows within two seconds'
        browser.await(2) { text('.card[data-key="radio"] .title') != playing }
        (System.nanoTime() - t0) / 1e9 < 2.0
        browser.await(2) { text('.card[data-key="radio"] .history li')?.contains(playing.replace('Groovecast Tests — ', '')) }

        and: 'the page said nothing at error level'
        browser.errors.isEmpty()

        cleanup: 'a screenshot for people to look at'
        browser?.screenshot(SCREENSHOT)
    }

    def "without the page's credentials its buttons are hidden and a log-in link shows; a title is shown as text, never run"() {
        given:
        assert Browser.available(): "the browser test needs Debian's chromium (apt-get install -y chromium); .ci/run installs it"
        station = Engine.load('radio.groovy', """
            def s = sine()
            thread.run(delay: 0.2) { -> s.insertMetadata(title: '<img src=x onerror="window.pwned=1">') }
            output.harbor(mp3(), s, mount: 'radio', port: ${port}, id: 'radio')
            status.page(port: ${port}, auth: [user: 'admin', password: 'secret'])
        """.stripIndent(), [:])
        station.start(null)
        browser = new Browser()

        when:
        browser.open("http://127.0.0.1:${port}/")

        then:
        browser.await(5) { text('#link') == 'live' }
        browser.await(3) { browser.eval("!document.getElementById('login').hidden") }
        browser.eval("document.querySelector('.card[data-key=\"radio\"] button.skip').hidden") == true
        browser.await(3) { text('.card[data-key="radio"] .title') == '<img src=x onerror="window.pwned=1">' }
        browser.eval('window.pwned === undefined && document.querySelector("img") === null') == true
        browser.errors.isEmpty()
    }

    def "the history numbers its ten songs 1 to 10, the tenth's two digits in full"() {
        given: 'a song every 0.1 s, so that the history is full in about a second'
        assert Browser.available(): "the browser test needs Debian's chromium (apt-get install -y chromium); .ci/run installs it"
        station = Engine.load('radio.groovy', """
            def s = sine()
            int n = 0
            thread.run(delay: 0.1, every: 0.1) { -> if (n < 12) s.insertMetadata(title: "Song \${++n}") }
            output.harbor(mp3(), s, mount: 'radio', port: ${port}, id: 'radio')
            status.page(port: ${port})
        """.stripIndent(), [:])
        station.start(null)
        browser = new Browser()

        when:
        browser.open("http://127.0.0.1:${port}/")

        then:
        browser.await(5) { (browser.eval("document.querySelectorAll('.card[data-key=\"radio\"] .history li').length") as int) == 10 }

        and: 'the room left of each entry, where its number is drawn, holds "10. " in the font of the list: nothing cut'
        browser.eval("""(() => {
            const ol = document.querySelector('.card[data-key="radio"] .history');
            const tenth = ol.children[9];
            const probe = document.createElement('span');
            probe.textContent = '10. ';
            probe.style.font = getComputedStyle(tenth).font;
            probe.style.whiteSpace = 'pre';
            probe.style.position = 'absolute';
            document.body.append(probe);
            const needed = probe.getBoundingClientRect().width;
            probe.remove();
            const room = tenth.getBoundingClientRect().left - ol.getBoundingClientRect().left - ol.clientLeft;
            const style = getComputedStyle(tenth);
            if (style.listStyleType !== 'decimal') return 'numbered by ' + style.listStyleType;
            return style.listStylePosition === 'inside' || room >= needed || ('room ' + room + ' px for ' + needed + ' px');
        })()""") == true
        browser.errors.isEmpty()
    }
}
