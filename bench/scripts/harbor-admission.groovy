// HarborAdmission's station: a 128 kbit/s MP3 mount /radio on HARBOR_PORT for its listeners, with
// the deny list in DENY_FILE (one address or CIDR range a line; none when the file is empty).
int port = env('HARBOR_PORT', '8123').toInteger()
List<String> denied = java.nio.file.Files.readAllLines(java.nio.file.Path.of(env('DENY_FILE')))
output.harbor(mp3(bitrate: 128), sine(440, amplitude: 0.2), mount: 'radio', port: port, burst: 0,
        deny: [addresses: denied])
