package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.scripts.support.Engine
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/** groovecast check and run on .liq scripts: OK, or one located line and exit 1, never a stack trace. */
@Tag("integration")
class LiquidsoapCheckSpec extends Specification {
    @TempDir
    Path dir

    Map check(String name, String text) {
        Path f = dir.resolve(name)
        Files.writeString(f, text)
        Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), f.toString())
    }

    def "a good script checks fine, with its output counted"() {
        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), Engine.SCRIPTS.resolve('tone.liq').toString())

        then:
        r.code == 0
        r.out.trim() == 'tone.liq: OK, 1 output(s)'
    }

    @Unroll
    def "#what: check prints one located line and exits 1"() {
        when:
        def r = check('station.liq', text)
        def lines = r.err.readLines().findAll { !it.isBlank() }

        then:
        r.code == 1
        lines.size() == 1
        lines[0] == expected
        !r.err.contains('\tat ')

        where:
        what                      | text                                                                  | expected
        'unknown function'        | 's = sine(440.)\noutput.dummy(sinus(s))\n'                            | 'station.liq:2:13: unknown function sinus; did you mean sine?'
        'unknown library field'   | 'l = list.mapp(fun (x) -> x, [1])\n'                                   | 'station.liq:1:4: unknown function list.mapp; did you mean list.map?'
        'wrong label'             | 'output.dummy(sine(amplitud=0.5, 440.))\n'                            | 'station.liq:1:27: Cannot apply that parameter because the function at station.liq:1:13 has no argument labeled "amplitud"! Did you mean "amplitude"?'
        'syntax error'            | 's = sine(440.\noutput.dummy(s)\n'                                     | 'station.liq:2:0: syntax error: unexpected `output`, expected `)` to close the `sine(` at 1:4'
        'unterminated string'     | 's = "abc\n'                                                           | 'station.liq:1:4: syntax error: string is not closed'
        'uncaught error'          | 'error.raise(error.not_found, "gone")\n'                               | 'station.liq:1:0: uncaught error not_found: gone'
        'engine refusal'          | 'output.dummy(once(sine(440.)))\n'                                     | 'station.liq:1:0: output.dummy(): source once_1 is fallible (it may stop producing); wrap it in mksafe() or fallback(), or pass fallible=true'
        'int for a float'         | 'output.dummy(sine(amplitude=1, 440.))\n'                             | 'station.liq:1:28: this value has type int but it should be a subtype of float'
        'string for a number'     | 'x = 1 + "a"\noutput.dummy(sine())\n'                                 | 'station.liq:1:8: this value has type string but it should be a subtype of int'
        'missing argument'        | 'output.dummy(amplify(0.5))\n'                                        | "station.liq:1:13: Missing arguments in function application: source('A)."
        'unknown field'           | 'r = {title = "a"}\nprint(r.artist)\noutput.dummy(sine())\n'          | 'station.liq:2:6: this value has no method `artist`. Its type is {title : string}.'
        'source content'          | 'def mono(s) = (s : source(audio=pcm(mono))) end\noutput.file(%wav(stereo), "x.wav", mono(sine()))\n' | 'station.liq:2:35: this value has type source(audio=pcm(mono), _) but it should be a subtype of source(audio=pcm(stereo), _)'
        'callback without synchronous' | 's = sine()\ns.on_track(fun (_) -> ())\noutput.dummy(s)\n'         | 'station.liq:2:0: Missing arguments in function application: synchronous : bool.'
        'no output'               | 's = sine(440.)\n'                                                     | 'station.liq: the script defines no output and serves nothing, so there is nothing to run; add an output such as output.dummy(s) or output.file(wav(), \'out.wav\', s), or a server such as rtmp.server()'
    }

    def "an error in an included file is located in that file"() {
        given:
        Files.writeString(dir.resolve('lib.liq'), 'def f() =\n  nosuch(1)\nend\n')

        when:
        def r = check('main.liq', '%include "lib.liq"\noutput.dummy(sine(440.))\n')

        then:
        r.code == 1
        r.err.trim() == 'lib.liq:2:2: unknown function nosuch'
    }

    def "a file that is no script at all: one line"() {
        given:
        Path f = dir.resolve('garbage.liq')
        byte[] bytes = new byte[100_000]
        new Random(7).nextBytes(bytes)
        Files.write(f, bytes)

        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), f.toString())

        then:
        r.code == 1
        r.err.readLines().findAll { !it.isBlank() }.size() == 1
        r.err.startsWith('garbage.liq:')
        !r.err.contains('\tat ')
    }

    def "run refuses a bad script the same way, before starting anything"() {
        given:
        Path f = dir.resolve('bad.liq')
        Files.writeString(f, 'output.dummy(sinus(440.))\n')

        when:
        def r = Engine.cli('run', '--plugins-dir', Engine.PLUGINS.toString(), f.toString())

        then:
        r.code == 1
        r.err.trim() == 'bad.liq:1:13: unknown function sinus; did you mean sine?'
    }
}
