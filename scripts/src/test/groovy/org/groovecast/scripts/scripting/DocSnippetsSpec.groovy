package org.groovecast.scripts.scripting

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.SelfSigned
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Every fenced {@code groovy} block in README.md, CONTRIBUTING.md and every page under docs/ (its
 * folders too) is a station script that loads: it
 * compiles and its graph builds with the shipped plugins, as {@code groovecast check} would judge
 * it, so a renamed operator or parameter cannot leave the docs behind. Every fenced {@code
 * liquidsoap} block is the same, loaded as a {@code .liq} station by the Liquidsoap front end. A block that continues an
 * example names what it takes from the text before it on a line just above its fence, which the
 * rendered page does not show: {@code <!-- snippet given: def radio = mksafe(sine(440)) -->}. A
 * block in another language (a plugin's Java) names the source file it is a part of, which the build
 * compiles and runs: {@code <!-- snippet file: plugins/examples/widener/src/test/java/...Test.java -->}.
 */
@Tag("integration")
class DocSnippetsSpec extends Specification {
    @TempDir
    Path dir

    /** Files of the station's machine that a snippet names through env(), made once for every snippet. */
    @Shared
    @TempDir
    Path machine
    @Shared
    Map<String, String> env

    static final Path ROOT = Engine.SCRIPTS.toAbsolutePath().parent
    static final String GIVEN = '<!-- snippet given: '
    /** Above a block of another language: the source file (compiled and run by the build) it is taken from. */
    static final String FILE = '<!-- snippet file: '

    /** Every name a snippet reads with env(), so that a required secret is set as a station would set it. */
    static final Map<String, String> ENV = ['API', 'API_KEY', 'CONTROL_TOKEN', 'STATUS_PASSWORD', 'DJ_PASSWORD',
            'ADMIN_PASSWORD', 'PUBLISH_TOKEN', 'YT_KEY', 'FB_KEY', 'ORIGIN_TOKEN', 'MUSIC', 'OUT']
            .collectEntries { [it, 'doc-' + it.toLowerCase()] }

    record Snippet(String file, int line, String given, String code, String language = 'groovy') {
        String toString() { "$file:$line" }

        /** The extension its script file takes, which chooses the front end that loads it. */
        String extension() { language == 'liquidsoap' ? '.liq' : '.groovy' }
    }

    static List<Snippet> snippets() {
        docs().collectMany { read(it, Files.readAllLines(ROOT.resolve(it))) + read(it, Files.readAllLines(ROOT.resolve(it)), 'liquidsoap') }
    }

    static List<Snippet> read(String file, List<String> lines, String language = 'groovy') {
        List<Snippet> found = []
        for (int i = 0; i < lines.size(); i++) {
            if (lines[i].trim() != '```' + language) continue
            String before = i > 0 ? lines[i - 1].trim() : ''
            String given = before.startsWith(GIVEN) && before.endsWith('-->') ? before[GIVEN.length()..-4].trim() : ''
            int end = i + 1
            while (end < lines.size() && lines[end].trim() != '```') end++
            if (end == lines.size()) throw new IllegalStateException("$file:${i + 1}: a $language block that never closes")
            found << new Snippet(file, i + 1, given, lines.subList(i + 1, end).join('\n'), language)
            i = end
        }
        found
    }

    def setupSpec() {
        SelfSigned tls = new SelfSigned(machine, 'doc')
        env = ENV + [CLIP: Media.colourClip('doc-clip.mkv', 1, '320x240').toString(),
                TLS_CERT: tls.cert.toString(), TLS_KEY: tls.key.toString()]
    }

    def "the docs have groovy snippets to check, and liquidsoap ones"() {
        expect:
        snippets().count { it.language == 'groovy' } >= 11
        snippets().count { it.language == 'liquidsoap' } >= 3
    }

    def "the pages in docs' folders are read too"() {
        expect: 'the guide and the references live in docs/guide/ and docs/reference/'
        docs().containsAll(['docs/guide/schedules.md', 'docs/reference/groovy.md', 'docs/reference/liquidsoap.md'])
        snippets().any { it.file.startsWith('docs/guide/') && it.language == 'groovy' }
        snippets().any { it.file.startsWith('docs/reference/') && it.language == 'liquidsoap' }
    }

    def "#snippet loads as a station script"() {
        when: 'the block, after what it is given, loads as groovecast check loads a script'
        // The given lines come first on one line, so an error's line number is the block's own line plus one.
        String text = snippet.given + '\n' + snippet.code + '\n'
        Path script = Files.writeString(dir.resolve(snippet.toString().replaceAll(/[^A-Za-z0-9.]/, '-') + snippet.extension()), text)
        Station station = Station.load(script, Engine.plugins().functions(), [:], env)

        then:
        station.graph() != null

        where:
        snippet << snippets()
    }

    /** Every block marked with the file it shows, as [doc:line, file, code]. */
    static List<List<String>> fileSnippets() {
        List<List<String>> found = []
        for (String doc : docs()) {
            List<String> lines = Files.readAllLines(ROOT.resolve(doc))
            for (int i = 1; i < lines.size(); i++) {
                String before = lines[i - 1].trim()
                if (!before.startsWith(FILE) || !lines[i].trim().startsWith('```')) continue
                int end = i + 1
                while (end < lines.size() && lines[end].trim() != '```') end++
                found << ["$doc:${i + 1}".toString(), before[FILE.length()..-4].trim(), lines.subList(i + 1, end).join('\n')]
            }
        }
        found
    }

    /** README.md, CONTRIBUTING.md and every page under docs/, in its folders too (guide/, reference/). */
    static List<String> docs() {
        List<Path> docs = [ROOT.resolve('README.md'), ROOT.resolve('CONTRIBUTING.md')]
        Files.walk(ROOT.resolve('docs')).withCloseable { s -> docs += s.filter { it.toString().endsWith('.md') }.sorted().toList() }
        docs.collect { ROOT.relativize(it).toString() }
    }

    def "the docs show source files, whose build compiles and runs them"() {
        expect:
        fileSnippets().size() >= 1
    }

    def "#where is the text of #file"() {
        expect: 'the block is a part of the file as it stands, so that the file compiling means the block does'
        Files.readString(ROOT.resolve(file)).contains(code)

        where:
        [where, file, code] << fileSnippets()
    }

    def "a block that never closes is reported with its file and line"() {
        when:
        read('x.md', ['text', '```groovy', 'sine(440)'])

        then:
        IllegalStateException e = thrown()
        e.message == 'x.md:2: a groovy block that never closes'
    }

    def "a given line is read from just above the fence"() {
        expect:
        read('x.md', ['<!-- snippet given: def radio = sine(440) -->', '```groovy', 'output.dummy(radio)', '```'])
                == [new Snippet('x.md', 2, 'def radio = sine(440)', 'output.dummy(radio)')]
    }
}
