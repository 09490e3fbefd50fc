// HarborHttp's station: GET /static on HARBOR_PORT answers 1,024 bytes of 'x' (like the
// anchors' harbor.liq for Liquidsoap 2.1.3); GET /files/static answers the same 1,024 bytes from
// the file STATIC_DIR/static (as nginx serves it); a 128 kbit/s MP3 mount /radio for the fan-out.
int port = env('HARBOR_PORT', '8123').toInteger()
String payload = 'x' * 1024
harbor.http.register('/static', port: port) { req -> http.response(contentType: 'text/plain', data: payload) }
if (env('STATIC_DIR', '')) harbor.http.static('/files', env('STATIC_DIR'), port: port)
output.harbor(mp3(bitrate: 128), sine(440, amplitude: 0.2), mount: 'radio', port: port, burst: 0)
