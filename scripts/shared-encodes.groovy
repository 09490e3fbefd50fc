// Shared encodes: three encodes serve five outputs, the shape of a busy radio server.
// MUSIC is a file, a directory or a playlist; OUT_DIR receives HLS (two renditions) and three files.
def music = mksafe(playlist(env('MUSIC', 'music'), mode: 'normal'))
def out = env('OUT_DIR', 'out')

def aac48 = ffmpeg.encode.audio(aac(bitrate: 48), music)
def aac128 = ffmpeg.encode.audio(aac(bitrate: 128), music)
def mp3128 = ffmpeg.encode.audio(mp3(bitrate: 128), music)

output.file.hls("${out}/hls", [lo: aac48, hi: aac128], segmentDuration: 2, segments: 10)
output.file(copy(), "${out}/lo.aac", aac48)
output.file(copy(), "${out}/hi.aac", aac128)
output.file(copy(), "${out}/music.mp3", mp3128)
