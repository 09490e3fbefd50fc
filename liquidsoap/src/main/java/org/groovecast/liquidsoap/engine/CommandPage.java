package org.groovecast.liquidsoap.engine;

/**
 * The page {@code server.harbor} serves on GET: a box to type a command in, each line POSTed to the
 * same path and its answer shown below it.
 */
final class CommandPage {
    private CommandPage() {}

    static String html(String uri) {
        return """
                <!doctype html>
                <html><head><meta charset="utf-8"><title>Groovecast commands</title></head>
                <body>
                <h1>Commands</h1>
                <form id="f"><input id="c" size="60" autofocus placeholder="help"></form>
                <pre id="out"></pre>
                <script>
                document.getElementById('f').onsubmit = async (e) => {
                  e.preventDefault();
                  const c = document.getElementById('c');
                  const r = await fetch(%s, {method: 'POST', body: c.value});
                  document.getElementById('out').textContent += '> ' + c.value + '\\n' + await r.text();
                  c.value = '';
                };
                </script>
                </body></html>
                """
                .formatted(jsString(uri));
    }

    private static String jsString(String s) {
        StringBuilder out = new StringBuilder("'");
        for (char ch : s.toCharArray()) {
            if (ch == '\'' || ch == '\\' || ch == '<' || ch < 0x20)
                out.append(String.format("\\u%04x", (int) ch));
            else out.append(ch);
        }
        return out.append('\'').toString();
    }
}
