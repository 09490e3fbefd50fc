// The RTMP benchmark's station (bench/rtmp/run.sh --relay groovecast): an RTMP server that relays
// each publisher (rtmp://127.0.0.1:PORT/live/KEY) to its players, on RTMP_PORT (1935 by default).
// The server alone is the whole script: no output, so no clock, and the relay's work is all there is.
// RTMP_CHUNK_SIZE compares chunk sizes (the server's default 60000 against nginx-rtmp's 4096).
rtmp.server(port: Integer.parseInt(System.getenv('RTMP_PORT') ?: '1935'), bind: '127.0.0.1',
        chunkSize: Integer.parseInt(System.getenv('RTMP_CHUNK_SIZE') ?: '60000'))
