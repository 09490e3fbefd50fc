#!/usr/bin/env bash
# Makes the RTMP benchmark's test clip once and prints its path: 30 s of 1920x1080 30 fps H.264
# (testsrc2 with temporal noise so that x264 actually spends ~6 Mbit/s, libx264 veryfast,
# -b:v 6M -maxrate 6M -bufsize 12M, a keyframe every 2 s) and AAC 128k 48 kHz stereo (a sine), in FLV.
# Reused when present; --force makes it again. The cache directory is RTMP_BENCH_MEDIA
# (default /tmp/groovecast-bench-media, where the media benchmarks keep theirs).
#   bench/rtmp/make-clip.sh [--force]
set -euo pipefail

dir="${RTMP_BENCH_MEDIA:-/tmp/groovecast-bench-media}"
clip="$dir/rtmp-1080p30-6M.flv"

if [[ "${1:-}" == "--force" ]]; then
    rm -f "$clip" "$clip.packets"
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--force]" >&2
    exit 2
fi

command -v ffmpeg >/dev/null || { echo "ffmpeg is needed: apt-get install -y ffmpeg" >&2; exit 1; }

# count_packets: writes $clip.packets, "VIDEO_PACKETS AUDIO_PACKETS DURATION_S" counted by ffprobe once,
# from which run.sh derives the messages a player receives per second.
count_packets() {
    local v a d
    v="$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$clip")"
    a="$(ffprobe -v error -select_streams a:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$clip")"
    d="$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip")"
    echo "$v $a $d" > "$clip.packets"
}

if [[ -s "$clip" ]]; then
    [[ -s "$clip.packets" ]] || count_packets
    echo "$clip"
    exit 0
fi

mkdir -p "$dir"
tmp="$clip.tmp.$$.flv"
trap 'rm -f "$tmp"' EXIT
echo "making $clip (30 s of 1080p30 H.264 6 Mbit/s + AAC 128k; about a minute on 2 cores)" >&2
# nice: other people's builds share this machine.
nice -n 10 ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30,noise=alls=12:allf=t" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=30" \
    -map 0:v -map 1:a \
    -c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p \
    -b:v 6M -maxrate 6M -bufsize 12M -g 60 -keyint_min 60 -sc_threshold 0 \
    -c:a aac -b:a 128k -ac 2 \
    -f flv "$tmp"
mv "$tmp" "$clip"
trap - EXIT
count_packets
echo "$clip"
