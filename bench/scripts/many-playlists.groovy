// ManyPlaylists' station: PLAYLISTS playlists of the directory DIR, each opening three tracks
// ahead of time and re-reading the directory after every round, behind one fallback into a
// discarding output (one clock). Only the first ready playlist plays; the others sit prefetched.
int n = env('PLAYLISTS', '160').toInteger()
String dir = env('DIR', 'music')

def lists = []
for (int i = 0; i < n; i++) {
    lists << playlist(dir, prefetch: 3, reloadMode: 'rounds', id: "pl${i}".toString())
}
output.dummy(mksafe(fallback(lists)))
