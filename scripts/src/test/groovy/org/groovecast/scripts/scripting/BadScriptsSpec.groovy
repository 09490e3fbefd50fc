package org.groovecast.scripts.scripting

import java.nio.file.Path
import org.groovecast.scripts.support.Engine
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.Unroll

@Tag("integration")
class BadScriptsSpec extends Specification {
    static Path bad(String name) {
        Path.of(BadScriptsSpec.getResource("/bad/$name").toURI())
    }

    @Unroll
    def "#script: groovecast check prints one located line and exits 1"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), bad(script).toString())
        def lines = r.err.readLines().findAll { !it.isBlank() }

        then:
        r.code == 1
        lines.size() == 1
        lines[0] == expected
        !r.err.contains('\tat ')

        where:
        script                     | expected
        'unknown-operator.groovy'  | 'unknown-operator.groovy:1: unknown operator sinus(); did you mean sine()?'
        'wrong-argument.groovy'    | 'wrong-argument.groovy:2: fallback() expects sources, got String "music"'
        'unknown-setting.groovy'   | 'unknown-setting.groovy:1: unknown setting settings.frame.durration'
        'unknown-parameter.groovy' | 'unknown-parameter.groovy:1: sine() has no parameter amplitud: (it takes amplitude:)'
        'runtime-argument.groovy'  | 'runtime-argument.groovy:3: rotate(): 3 weights for 2 sources'
        'failed-assert.groovy'     | "failed-assert.groovy:2: assertion failed: assert env('GROOVECAST_UNSET_API_KEY')"
        'thrown-error.groovy'      | 'thrown-error.groovy:2: Error: bad'
        'callback-arity.groovy'    | 'callback-arity.groovy:2: fallback(): onSelect is called with 1 argument (the selected source), but this function takes none; write { a -> ... }'
        'port-range.groovy'        | 'port-range.groovy:2: output.harbor() takes port from 0 to 65535, got Integer 70000'
        'time-zone.groovy'         | "time-zone.groovy:2: settings.time.zone expects a time zone such as Europe/Paris, UTC or +02:00, got 'Europe/Pariss'"
        'no-channels.groovy'       | 'no-channels.groovy:1: settings.audio.channels must be from 1 to 8, got 0'
        'deny-cidr.groovy'         | "deny-cidr.groovy:2: output.harbor() deny: '10.0.0.0/33' has prefix length 33; it takes 0 to 32"
        'deny-agent.groovy'        | "deny-agent.groovy:2: output.harbor() deny: agent pattern '/(curl/' is no regular expression: Unclosed group near index 5"
    }

    @Unroll
    def "#script: groovecast run prints the same located line, exits 1 and starts nothing"() {
        when:
        def r = Engine.cli('run', '--plugins-dir', Engine.PLUGINS.toString(), bad(script).toString())

        then:
        r.code == 1
        r.err.readLines().findAll { !it.isBlank() } == [expected]

        where:
        script                 | expected
        'failed-assert.groovy' | "failed-assert.groovy:2: assertion failed: assert env('GROOVECAST_UNSET_API_KEY')"
        'thrown-error.groovy'  | 'thrown-error.groovy:2: Error: bad'
        'no-channels.groovy'   | 'no-channels.groovy:1: settings.audio.channels must be from 1 to 8, got 0'
        'port-range.groovy'    | 'port-range.groovy:2: output.harbor() takes port from 0 to 65535, got Integer 70000'
    }

    def "a script saved with a byte-order mark, with @Field closures and sources, checks fine"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(),
                Path.of(BadScriptsSpec.getResource('/good/fields-and-bom.groovy').toURI()).toString())

        then:
        r.code == 0
        r.out.trim() == 'fields-and-bom.groovy: OK, 1 output(s)'
        !r.err.contains('\tat ')
    }

    def "a fallible source into an output is refused with its line and the way out"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), bad('fallible-output.groovy').toString())

        then:
        r.code == 1
        r.err.readLines().size() == 1
        r.err =~ /^fallible-output\.groovy:3: output\.dummy\(\): source once_\d+ is fallible .*mksafe\(\).*fallible: true/
    }

    def "a syntax error is reported with its line"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), bad('syntax-error.groovy').toString())

        then:
        r.code == 1
        r.err.readLines().size() == 1
        r.err.startsWith('syntax-error.groovy:')
        !r.err.contains('\tat ')
    }

    def "run refuses a bad script the same way, before starting anything"() {
        when:
        def r = Engine.cli('run', '--plugins-dir', Engine.PLUGINS.toString(), bad('unknown-operator.groovy').toString())

        then:
        r.code == 1
        r.err.trim() == 'unknown-operator.groovy:1: unknown operator sinus(); did you mean sine()?'
    }

    def "a good script checks fine"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), Engine.SCRIPTS.resolve('tone.groovy').toString())

        then:
        r.code == 0
        r.out.trim() == 'tone.groovy: OK, 1 output(s)'
    }
}
