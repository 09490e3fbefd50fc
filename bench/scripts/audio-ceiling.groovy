// AudioCeiling's station: STREAMS independent copies of the shared-encode shape
// (scripts/shared-encodes.groovy), each on a clock of its own named s0, s1, ...
// One decode of IN per stream, three encodes (AAC 48k, AAC 128k, MP3 128k), each encode muxed
// by two or one outputs: HLS with two renditions and three copy() files, under OUT_DIR/sI.
int n = env('STREAMS', '1').toInteger()
String input = env('IN', 'in.mp3')
String out = env('OUT_DIR', 'out')

for (int i = 0; i < n; i++) {
    String dir = "${out}/s${i}"
    def music = single(input, id: "music${i}".toString())
    def aac48 = ffmpeg.encode.audio(aac(bitrate: 48), music)
    def aac128 = ffmpeg.encode.audio(aac(bitrate: 128), music)
    def mp3128 = ffmpeg.encode.audio(mp3(bitrate: 128), music)
    output.file.hls("${dir}/hls", [lo: aac48, hi: aac128], segmentDuration: 2, segments: 10)
    output.file(copy(), "${dir}/lo.aac", aac48)
    output.file(copy(), "${dir}/hi.aac", aac128)
    output.file(copy(), "${dir}/music.mp3", mp3128)
    clock.assignNew(id: "s${i}".toString(), [music])
}
