// What AzuraCast's generated configuration calls on every station (its azuracast.liq and the
// functions ConfigWriter writes before the playlists), in Groovecast: the calls to the AzuraCast
// API, the DJ login, the live show's metadata and transitions. Included by azuracast-style.groovy;
// the API's place and key come from the environment, as AzuraCast passes them to Liquidsoap.

// AzuraCast's azuracast_api_call: POST a JSON payload to the station's API, the body back, or
// 'false' when the API cannot be reached or answers an error (the callers treat it as "no").
String api(String path, Map payload, double timeout = 2) {
    String base = env('AZURACAST_API_URL', 'http://127.0.0.1/api/internal/1/liquidsoap')
    try {
        def r = http.post("${base}/${path}".toString(), data: json.stringify(payload, compact: true), timeout: timeout,
                headers: ['Content-Type': 'application/json', 'X-Liquidsoap-Api-Key': env('AZURACAST_API_KEY', '')])
        if (r.status >= 300) {
            log.warning("API ${path}: HTTP ${r.status}")
            return 'false'
        }
        r.body
    } catch (Exception e) {
        log.warning("API ${path}: ${e.message}")
        'false'
    }
}

// AzuraCast's dj_auth: Icecast clients that send only a password send 'user:password' in it, as
// AzuraCast tells DJs to. The API answers false, or who the DJ is.
def djAuth(String user, String password) {
    String u = user
    String p = password
    if ((u == null || u == '' || u == 'source') && password?.contains(':')) {
        u = password.substring(0, password.indexOf(':'))
        p = password.substring(password.indexOf(':') + 1)
    }
    String answer = api('auth', [user: u, password: p], 5)
    if (answer == 'false' || answer == '') return false
    if (answer == 'true') return [allow: true, username: u, displayName: u]
    try {
        json.parse(answer)        // [allow: true, username: 'dj1', display_name: 'DJ One'] passes through
    } catch (Exception e) {
        log.warning("API auth: ${e.message}")
        false
    }
}

// AzuraCast's insert_missing: a live show without titles of its own is "Live Broadcast".
Map liveMetadata(Map m) {
    Map out = [is_live: 'true']
    if (!m.title) out.title = m.dj_display_name ?: 'Live Broadcast'
    out
}

// The crossfade into and out of the live show: the source left fades out while the new one fades in.
def liveTransition(from, to) {
    add(normalize: false, [fade.out(from, duration: 1), fade.in(to, duration: 1)])
}
