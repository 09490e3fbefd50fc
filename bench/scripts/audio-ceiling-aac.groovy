// AudioCeiling's like-for-like station (--shapes=aac): the Liquidsoap anchor's shape,
// STREAMS independent streams, each one decode of IN and one AAC 48k (ADTS) encode into a file
// (OUT_DIR/sI.aac; the Liquidsoap side writes to /dev/null), each on a clock of its own.
int n = env('STREAMS', '1').toInteger()
String input = env('IN', 'in.mp3')
String out = env('OUT_DIR', 'out')

for (int i = 0; i < n; i++) {
    def music = single(input, id: "music${i}".toString())
    output.file(aac(bitrate: 48), "${out}/s${i}.aac", music)
    clock.assignNew(id: "s${i}".toString(), [music])
}
