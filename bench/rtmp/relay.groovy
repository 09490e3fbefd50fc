// The RTMP benchmark's station (bench/rtmp/run.sh --relay groovecast): an RTMP server that relays
// each publisher (rtmp://127.0.0.1:PORT/live/KEY) to its players, on RTMP_PORT (1935 by default).
// A station must have an output: output.dummy(blank()) drives a silent source and discards it, so
// the only real work is the relay's.
rtmp.server(port: Integer.parseInt(System.getenv('RTMP_PORT') ?: '1935'), bind: '127.0.0.1')
output.dummy(blank())
