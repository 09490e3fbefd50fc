// HarborHttp's station: GET /static on HARBOR_PORT answers 1,024 bytes of 'x' (like the
// anchors' harbor.liq for Liquidsoap 2.1.3), and a 128 kbit/s MP3 mount /radio for the fan-out.
int port = env('HARBOR_PORT', '8123').toInteger()
String payload = 'x' * 1024
harbor.http.register('/static', port: port) { req -> http.response(contentType: 'text/plain', data: payload) }
output.harbor(mp3(bitrate: 128), sine(440, amplitude: 0.2), mount: 'radio', port: port, burst: 0)
