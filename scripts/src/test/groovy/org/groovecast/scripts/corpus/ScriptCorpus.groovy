package org.groovecast.scripts.corpus

/**
 * A generated corpus of short station scripts of the shapes station engineers write, crossed with
 * what tends to break a script engine: values whose type the checker cannot know, indexed and
 * combined every way Groovy allows; every kind of callback throwing every kind of Throwable;
 * Groovy's AST transforms; maps passed as values; settings out of range; failures at load time. Each
 * script either checks (and then runs a few seconds) or is refused with located messages; which of
 * the two is not asserted here, only that the engine never answers with an internal error, a stack
 * trace, an unlocated message or a hang (see {@link CorpusVerdict}).
 */
final class ScriptCorpus {
    /** One script of the corpus: a name that says what it tries, and its text. */
    static final class Entry {
        final String name
        final String text
        /** Whether running it (after a clean check) makes sense: it has something to play. */
        final boolean runnable

        Entry(String name, String text, boolean runnable = true) {
            this.name = name
            this.text = text
            this.runnable = runnable
        }

        @Override
        String toString() { name }
    }

    /** Values whose static type is unknown or loose, as scripts get them. */
    static final Map<String, String> VALUES = [
            'json'      : "json.parse('{\"x\": [1, 2, {\"y\": 3}], \"n\": 4, \"s\": \"a b\"}')",
            'jsonList'  : "json.parse('[1, 2, 3]')",
            'split'     : "'a b c'.split(' ')",
            'tokenize'  : "'a b c'.tokenize(' ')",
            'defList'   : "[1, 2, 3]",
            'defMap'    : "[a: 1, b: [2, 3]]",
            'emptyMap'  : "[:]",
            'emptyList' : "[]",
            'string'    : "'hello'",
            'number'    : "42",
            'nullValue' : "null",
            'envValue'  : "env('CORPUS_UNSET', 'x,y')",
            'metaLast'  : "sine(330).lastMetadata()",
    ]

    /** What scripts do with such values: {@code V} stands for the value. */
    static final Map<String, String> USES = [
            'index0'     : "V[0]",
            'indexNeg'   : "V[-1]",
            'indexRange' : "V[0..1]",
            'safeIndex'  : "V?[0]",
            'key'        : "V['x']",
            'chain'      : "V.x[2].y",
            'safeChain'  : "V?.x?.getAt(0)",
            'property'   : "V.n",
            'size'       : "V.size()",
            'plus'       : "V + V",
            'minus'      : "V - 1",
            'times'      : "V * 2",
            'compare'    : "V < 2",
            'equals'     : "V == 1",
            'membership' : "1 in V",
            'leftShift'  : "V << 4",
            'elvis'      : "V ?: 'default'",
            'not'        : "!V",
            'asString'   : "V as String",
            'interpolate': '"value \${V}"',
            'each'       : "V.each { e -> log.info(\"e \${e}\") }",
            'eachKV'     : "V.each { kk, vv -> log.info(\"\${kk}=\${vv}\") }",
            'collect'    : "V.collect { e -> e }",
            'spread'     : "V*.toString()",
            'putAt'      : "V[0] = 5",
            'stringify'  : "json.stringify(V)",
            'stringifyC' : "json.stringify(V, compact: true)",
            'logValue'   : "log.info(V)",
    ]

    /** Where a use of a value can stand: at top level, in a function, in callbacks. */
    static final Map<String, String> PLACES = [
            'top'     : "def v = VALUE\ndef r = USE\nlog.info(\"result \${r}\")\n",
            'typedObj': "Object v = VALUE\ndef r = USE\nlog.info(\"result \${r}\")\n",
            'function': "def f(v) { USE }\ndef r = f(VALUE)\nlog.info(\"result \${r}\")\n",
            'onTrack' : "def v = VALUE\ns.onTrack { m -> log.info(\"cb \${USE}\") }\n",
            'register': "server.register('probe') { arg -> def v = VALUE; \"\${USE}\".toString() }\n",
            'thread'  : "thread.run(delay: 0.1) { -> def v = VALUE; log.info(\"t \${USE}\") }\n",
    ]

    /** Ways a script's own code fails, as a statement. */
    static final Map<String, String> THROWS = [
            'runtime'     : "throw new RuntimeException('boom')",
            'checked'     : "throw new Exception('checked boom')",
            'error'       : "throw new Error('error boom')",
            'assert'      : "assert false, 'assertion boom'",
            'assertTitle' : "assert m?.title, 'no title'",
            'npe'         : "String z = null; z.length()",
            'divide'      : "int z = 0; log.info(\"\${1 / z}\")",
            'cast'        : "Object z = 'x'; Integer i = (Integer) z; log.info(\"\${i}\")",
            'missing'     : "Object z = 'x'; z.noSuchMethod()",
            'stackOverflow': "recurse(0)",
            'illegalState': "throw new IllegalStateException('state boom')",
            'indexOut'    : "def z = [1]; log.info(\"\${z.get(5)}\")",
            'numberFormat': "Integer.parseInt('not a number')",
    ]

    /** The callbacks a station script hands the engine: {@code BODY} is the failing statement. */
    static final Map<String, String> CALLBACKS = [
            'onTrack'      : "s.onTrack { m -> BODY }",
            'onMetadata'   : "s.onMetadata { m -> BODY }",
            'onFrame'      : "s.onFrame { -> def m = null; BODY }",
            'onFrameBefore': "s.onFrame(before: true) { -> def m = null; BODY }",
            'onPosition'   : "s.onPosition(0.5) { m -> BODY }",
            'metadataMap'  : "s = metadata.map(s) { m -> BODY; m }",
            'switchOn'     : "s = switchOn([[{ -> def m = null; BODY; true }, s], [true, sine(220)]])",
            'onSelect'     : "s = fallback(onSelect: { x -> def m = null; BODY }, s, sine(220))",
            'onLeave'      : "s = rotate(onLeave: { x -> def m = null; BODY }, s, sine(220).tracks(duration: 1))",
            'threadRun'    : "thread.run(delay: 0.1) { -> def m = null; BODY }",
            'threadEvery'  : "thread.run(every: 0.5) { -> def m = null; BODY }",
            'threadSlow'   : "thread.run(delay: 0.1, fast: false) { -> def m = null; BODY }",
            'dynamic'      : "s = fallback(request.dynamic { -> def m = null; BODY; null }, s)",
            'cross'        : "s = cross(s, duration: 0.5) { a, b -> def m = null; BODY; b.source }",
            'register'     : "server.register('boom') { arg -> def m = null; BODY; 'ok' }",
            'protocol'     : "protocol.add('boom') { arg -> def m = null; BODY; null }",
    ]

    /** Callbacks with as many parameters as the engine does not pass. */
    static final Map<String, String> ARITY = [
            'onSelectNone' : "s = fallback(onSelect: { -> log.info('selected') }, s, sine(220))",
            'onSelectTwo'  : "s = fallback(onSelect: { a, b -> log.info('selected') }, s, sine(220))",
            'onTrackTwo'   : "s.onTrack { a, b -> log.info('track') }",
            'onFrameOne'   : "s.onFrame { x -> log.info('frame') }",
            'mapNone'      : "s = metadata.map(s) { -> [title: 'x'] }",
            'predicateOne' : "s = switchOn([[{ x -> true }, s], [true, sine(220)]])",
            'crossOne'     : "s = cross(s) { a -> a.source }",
            'dynamicOne'   : "s = fallback(request.dynamic { x -> null }, s)",
            'registerNone' : "server.register('n') { -> 'ok' }",
    ]

    /** Groovy's AST transforms and annotations as scripts use them. */
    static final List<List<String>> TRANSFORMS = [
            ['fieldInt', "import groovy.transform.Field\n@Field int count = 0\ndef bump() { count++ }\nbump()\n"],
            ['fieldClosure', "import groovy.transform.Field\n@Field Closure say = { x -> log.info(\"say \${x}\") }\nsay('hi')\n"],
            ['fieldSource', "import groovy.transform.Field\n@Field def tone = sine(550)\ndef t() { tone }\nt()\n"],
            ['fieldMap', "import groovy.transform.Field\n@Field Map state = [:]\nstate.a = 1\nlog.info(\"\${state}\")\n"],
            ['fieldList', "import groovy.transform.Field\n@Field List<String> seen = []\ns.onTrack { m -> seen << 'x' }\n"],
            ['compileDynamic', "import groovy.transform.CompileDynamic\n@CompileDynamic\ndef loose(x) { x.whatever }\nlog.info('ok')\n"],
            ['typeChecked', "import groovy.transform.TypeChecked\n@TypeChecked\ndef sum(int a, int b) { a + b }\nlog.info(\"\${sum(1, 2)}\")\n"],
            ['memoized', "import groovy.transform.Memoized\n@Memoized\ndef sq(int x) { x * x }\nlog.info(\"\${sq(3)}\")\n"],
            ['toStringClass', "import groovy.transform.ToString\n@ToString\nclass Song { String title }\nlog.info(new Song(title: 'a').toString())\n"],
            ['canonical', "import groovy.transform.Canonical\n@Canonical\nclass Show { String name; int hour }\nlog.info(\"\${new Show('a', 2)}\")\n"],
            ['immutable', "import groovy.transform.Immutable\n@Immutable\nclass Slot { String name }\nlog.info(\"\${new Slot(name: 'a')}\")\n"],
            ['tupleConstructor', "import groovy.transform.TupleConstructor\n@TupleConstructor\nclass Pair2 { String a; String b }\nlog.info(new Pair2('x', 'y').a)\n"],
            ['tailRecursive', "import groovy.transform.TailRecursive\n@TailRecursive\nlong fact(long n, long acc = 1) { n <= 1 ? acc : fact(n - 1, acc * n) }\nlog.info(\"\${fact(10)}\")\n"],
            ['lazyClass', "class Holder { @Lazy List<Integer> xs = [1, 2] }\nlog.info(\"\${new Holder().xs}\")\n"],
            ['sortable', "import groovy.transform.Sortable\n@Sortable\nclass Rank { int n }\nlog.info(\"\${[new Rank(n: 2), new Rank(n: 1)].sort()*.n}\")\n"],
            ['enumType', "enum Mode { DAY, NIGHT }\nlog.info(\"\${Mode.DAY}\")\n"],
            ['interfaceImpl', "interface Namer { String name() }\nclass Fixed implements Namer { String name() { 'f' } }\nlog.info(new Fixed().name())\n"],
            ['traitUse', "trait Greets { String greet() { 'hi' } }\nclass G implements Greets {}\nlog.info(new G().greet())\n"],
            ['staticMethod', "class Util { static String up(String x) { x.toUpperCase() } }\nlog.info(Util.up('a'))\n"],
            ['closureField', "def onLive = { String who -> log.info(\"live \${who}\") }\nonLive('dj')\n"],
            ['switchStatement', "def kind = 'b'\nswitch (kind) { case 'a': log.info('a'); break; case ~/b/: log.info('b'); break; default: log.info('?') }\n"],
            ['tryCatch', "try { throw new RuntimeException('x') } catch (RuntimeException e) { log.info(\"caught \${e.message}\") } finally { log.info('finally') }\n"],
            ['regex', "def mm = ('track-12' =~ /(\\d+)/)\nlog.info(\"\${mm[0][1]}\")\n"],
            ['multiAssign', "def (a, b) = [1, 2]\nlog.info(\"\${a + b}\")\n"],
            ['withBlock', "def m = [a: 1]\nm.with { log.info(\"\${it.a}\") }\n"],
            ['gstringKey', "def k = 'x'\ndef m = [(k): 1, \"\${k}y\": 2]\nlog.info(\"\${m}\")\n"],
    ]

    /** Maps passed as values where named arguments are also taken. */
    static final List<List<String>> MAP_VALUES = [
            ['stringifyEmptyMap', "Map m = [:]\nlog.info(json.stringify(m))\n"],
            ['stringifyOptionKeys', "log.info(json.stringify([compact: true]))\n"],
            ['stringifyParsedEmpty', "log.info(json.stringify(json.parse('{}')))\n"],
            ['stringifyMapVar', "def m = [compact: false, value: 1]\nlog.info(json.stringify(m, compact: true))\n"],
            ['logEmptyMap', "log.info([:])\n"],
            ['logMapVar', "def m = [a: 1]\nlog.info(m)\n"],
            ['insertMetadataMap', "Map m = [title: 'x']\ns.insertMetadata(m)\n"],
            ['responseHeadersMap', "def h = [:]\nharbor.http.register(port: 0, '/x') { req -> http.response(headers: h, data: [:]) }\n"],
    ]

    /** Settings a script may get wrong; each must be refused at its line or work. */
    static final List<List<String>> SETTINGS = [
            ['channelsZero', "settings.audio.channels = 0\n"],
            ['channelsNegative', "settings.audio.channels = -2\n"],
            ['frameNegative', "settings.frame.duration = -1\n"],
            ['frameZero', "settings.frame.duration = 0\n"],
            ['frameHuge', "settings.frame.duration = 100\n"],
            ['timeZone', "settings.time.zone = 'Mars/Olympus'\n"],
            ['clockSync', "settings.clock.sync = 'sometimes'\n"],
            ['computedChannels', "int c = Integer.parseInt('0')\nsettings.audio.channels = c\n"],
            ['hugePort', "output.harbor(wav(), mount: '/x', port: 70000, s)\n"],
            ['negativePort', "output.harbor(wav(), mount: '/x', port: -1, s)\n"],
            ['bigInteger', "s = sine(440).tracks(duration: 3000000000)\n"],
            ['hugeWeights', "s = rotate(weights: [3000000000, 1], s, sine(220))\n"],
    ]

    /** Failures while the script loads. */
    static final List<List<String>> LOAD_TIME = [
            ['assertEnv', "assert env('CORPUS_UNSET_KEY'), 'API_KEY is not set'\n"],
            ['throwError', "throw new Error('bad')\n"],
            ['throwRuntime', "throw new RuntimeException('bad')\n"],
            ['npeTop', "String z = null\nlog.info(z.trim())\n"],
            ['stackTop', "recurse(0)\n"],
            ['missingProperty', "Object z = 'x'\nlog.info(\"\${z.nothing}\")\n"],
            ['outputInCallback', "s.onTrack { m -> output.dummy(sine(100)) }\n"],
            ['outputInThread', "thread.run(delay: 0.1) { -> output.dummy(sine(100)) }\n"],
            ['unknownInCallback', "s.onTrack { m -> nosuchop(1) }\n"],
            ['bom', "\uFEFFlog.info('bom')\n"],
    ]

    private static final String HEAD = "def s = sine(440).tracks(duration: 1)\n" +
            "int recurse(int n) { recurse(n + 1) + 1 }\n"
    private static final String TAIL = "output.dummy(mksafe(s))\n"

    static List<Entry> all() {
        List<Entry> out = []
        VALUES.each { vName, value ->
            USES.each { uName, use ->
                ['top', 'function', 'onTrack', 'register'].each { place ->
                    out << entry("value-${vName}-${uName}-${place}", PLACES[place], value, use)
                }
            }
        }
        // The other places, with a sample of values.
        ['json', 'split', 'emptyMap', 'nullValue'].each { vName ->
            USES.each { uName, use ->
                ['typedObj', 'thread'].each { place ->
                    out << entry("value-${vName}-${uName}-${place}", PLACES[place], VALUES[vName], use)
                }
            }
        }
        CALLBACKS.each { cName, callback ->
            THROWS.each { tName, body ->
                out << new Entry("callback-${cName}-${tName}", HEAD + callback.replace('BODY', body) + "\n" + TAIL)
            }
        }
        ARITY.each { name, text -> out << new Entry("arity-${name}", HEAD + text + "\n" + TAIL) }
        TRANSFORMS.each { name, text -> out << new Entry("transform-${name}", HEAD + text + TAIL) }
        MAP_VALUES.each { name, text -> out << new Entry("map-${name}", HEAD + text + TAIL) }
        SETTINGS.each { name, text -> out << new Entry("settings-${name}", text + HEAD + TAIL) }
        LOAD_TIME.each { name, text -> out << new Entry("load-${name}", text.startsWith('\uFEFF') ? text + HEAD + TAIL : HEAD + text + TAIL) }
        out
    }

    private static Entry entry(String name, String place, String value, String use) {
        String body = place.replace('VALUE', value).replace('USE', use.replace('V', 'v'))
        new Entry(name, HEAD + body + TAIL)
    }
}
