// AudioCeiling's like-for-like stations (--shapes=mp3,aac): the Liquidsoap anchor's shape,
// STREAMS independent streams, each one decode of IN and one encode into a file, each on a clock
// of its own: FORMAT mp3 (MP3 128k, OUT_DIR/sI.mp3) or aac (AAC 48k in ADTS, OUT_DIR/sI.aac);
// the Liquidsoap side writes to /dev/null.
int n = env('STREAMS', '1').toInteger()
String input = env('IN', 'in.mp3')
String out = env('OUT_DIR', 'out')
String format = env('FORMAT', 'mp3')
def encoder = format == 'aac' ? aac(bitrate: 48) : mp3(bitrate: 128)

for (int i = 0; i < n; i++) {
    def music = single(input, id: "music${i}".toString())
    output.file(encoder, "${out}/s${i}.${format}", music)
    clock.assignNew(id: "s${i}".toString(), [music])
}
