// VideoTranscode's station: STREAMS transcodes of IN (H.264 + AAC) to H.264 (libx264, PRESET,
// THREADS encoder threads, 0 = auto) + AAC 128k in MPEG-TS files under OUT_DIR. SHARED=true puts
// every transcode on one clock; otherwise each has a clock of its own named v0, v1, ...
int n = env('STREAMS', '1').toInteger()
String input = env('IN', 'in.mkv')
String out = env('OUT_DIR', 'out')
String threads = env('THREADS', '0')
boolean shared = env('SHARED', 'false') == 'true'

def all = []
for (int i = 0; i < n; i++) {
    def clip = single(input, id: "clip${i}".toString())
    output.file(ffmpeg(format: 'mpegts', audio: [codec: 'aac', b: '128k'],
            video: [codec: 'libx264', preset: env('PRESET', 'veryfast'), g: 50, threads: threads]),
            "${out}/v${i}.ts", clip)
    if (shared) all << clip
    else clock.assignNew(id: "v${i}".toString(), [clip])
}
if (shared) clock.assignNew(id: 'video', all)
