'use strict';
// The status page: one EventSource, cards updated in place (a push field keeps what is typed),
// plots drawn on canvases by this file alone: the page needs nothing from the internet.
(function () {
  const WINDOW_MS = 10 * 60 * 1000;
  const traces = new Map(); // clock id -> {at: [], duty: [], lag: []}
  let loggedIn = false;

  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function clock(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return (h > 0 ? h + ':' + String(m).padStart(2, '0') : m) + ':' + String(r).padStart(2, '0');
  }

  function song(t) {
    if (!t) return '—';
    if (t.artist && t.title) return t.artist + ' — ' + t.title;
    return t.title || t.artist || '(no title)';
  }

  // The card of `key` in `container`, made by `make` the first time; cards no longer listed go.
  function cards(container, items, keyOf, make, update) {
    const seen = new Set();
    for (const item of items) {
      const key = keyOf(item);
      seen.add(key);
      let card = container.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (!card) {
        card = el('div', 'card');
        card.dataset.key = key;
        make(card, item);
        container.appendChild(card);
      }
      update(card, item);
    }
    for (const card of Array.from(container.querySelectorAll('.card'))) {
      if (!seen.has(card.dataset.key)) card.remove();
    }
    const none = container.querySelector('.none');
    if (none) none.hidden = items.length > 0;
  }

  async function command(name, argument, toast) {
    toast.textContent = '…';
    try {
      // The header tells the station the page itself asks: a form on another site cannot send it.
      const r = await fetch('api/control/' + encodeURIComponent(name),
        { method: 'POST', body: argument || '', headers: { 'X-Groovecast-Status': '1' } });
      toast.textContent = (await r.text()).trim() || r.status;
    } catch (e) {
      toast.textContent = 'failed: ' + e;
    }
  }

  function button(card, label, cls, action) {
    const b = el('button', 'action ' + cls, label);
    b.hidden = !loggedIn;
    b.addEventListener('click', action);
    return b;
  }

  function outputs(list) {
    cards($('outputs'), list, (o) => o.id, (card, o) => {
      const h = el('h3');
      h.append(el('span', 'name', o.id), el('span', 'kind', o.kind + (o.mount ? ' ' + o.mount : '')));
      card.append(h);
      if (o.mount !== undefined) {
        const l = el('div', 'dim');
        l.append(el('span', 'big listeners', '0'), ' listeners, peak ', el('span', 'peak', '0'));
        card.append(l);
      }
      card.append(el('div', 'title'), el('div', 'dim times'));
      const toast = el('div', 'toast');
      card.append(button(card, 'skip', 'skip', () => command(o.id + '.skip', '', toast)), toast);
      card.append(el('ol', 'history'));
    }, (card, o) => {
      if (o.mount !== undefined) {
        card.querySelector('.listeners').textContent = o.listeners;
        card.querySelector('.peak').textContent = o.listenerPeak;
      }
      card.querySelector('.title').textContent = song(o.nowPlaying);
      const np = o.nowPlaying;
      card.querySelector('.times').textContent = np
        ? clock(np.elapsed) + (np.remaining !== undefined ? ' played, ' + clock(np.remaining) + ' left' : ' played')
        : '';
      const ol = card.querySelector('.history');
      const text = o.history.map(song);
      if (ol.dataset.text !== text.join('\n')) {
        ol.dataset.text = text.join('\n');
        ol.replaceChildren(...text.map((t) => el('li', '', t)));
      }
    });
  }

  function inputs(list) {
    cards($('inputs'), list, (i) => i.id, (card, i) => {
      const h = el('h3');
      h.append(el('span', 'name', i.id), el('span', 'kind', 'input.harbor ' + i.mount));
      const toast = el('div', 'toast');
      card.append(h, el('div', 'state'), button(card, 'kick the DJ', 'kick', () => command(i.id + '.stop', '', toast)), toast);
    }, (card, i) => {
      card.querySelector('button.kick').disabled = !i.connected;
      const state = card.querySelector('.state');
      state.className = 'state ' + (i.connected ? 'on' : 'off');
      state.textContent = i.connected
        ? 'DJ' + (i.name ? ' ' + i.name : '') + ' on air' + (i.client ? ' from ' + i.client : '') + ' for ' + clock(i.seconds)
        : 'no DJ connected';
    });
  }

  function queues(list) {
    $('queues-section').hidden = list.length === 0;
    cards($('queues'), list, (q) => q.id, (card, q) => {
      const toast = el('div', 'toast');
      const field = el('input');
      field.type = 'text';
      field.placeholder = 'a file or URI to play next';
      field.hidden = !loggedIn;
      field.classList.add('action');
      const h = el('h3');
      h.append(el('span', 'name', q.id), el('span', 'kind', 'waiting: '), el('span', 'length', '0'));
      card.append(h, field, button(card, 'push', 'push', () => {
        if (field.value.trim()) command(q.id + '.push', field.value.trim(), toast).then(() => { field.value = ''; });
      }), toast);
    }, (card, q) => {
      card.querySelector('.length').textContent = q.length;
    });
  }

  function rtmp(servers) {
    const streams = [];
    for (const s of servers) for (const st of s.streams) streams.push({ port: s.port, path: st.path, players: st.players });
    cards($('rtmp'), streams, (s) => s.port + '/' + s.path, (card, s) => {
      const h = el('h3');
      h.append(el('span', 'name', s.path), el('span', 'kind', 'rtmp :' + s.port));
      card.append(h, el('div', 'dim subs'));
    }, (card, s) => {
      card.querySelector('.subs').textContent = 'published; ' + s.players + ' player(s)';
    });
  }

  function draw(canvas, trace) {
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
    if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const css = getComputedStyle(document.documentElement);
    const end = trace.at.length ? trace.at[trace.at.length - 1] : Date.now();
    // The whole ten minutes once there are; until then what there is, a minute at least.
    const first = trace.at.length ? trace.at[0] : end;
    const span = Math.min(WINDOW_MS, Math.max(60 * 1000, end - first));
    const start = end - span;
    const x = (t) => (t - start) / span * w;
    g.strokeStyle = '#2a3240';
    g.lineWidth = 1;
    for (let i = 1; i < 4; i++) { g.beginPath(); g.moveTo(0, h * i / 4); g.lineTo(w, h * i / 4); g.stroke(); }
    const dutyMax = Math.max(1, ...trace.duty);
    const lagMax = Math.max(0.1, ...trace.lag);
    const line = (values, max, color) => {
      g.strokeStyle = color;
      g.lineWidth = 1.5;
      g.beginPath();
      values.forEach((v, i) => {
        const px = x(trace.at[i]), py = h - 2 - (v / max) * (h - 4);
        if (i === 0) g.moveTo(px, py); else g.lineTo(px, py);
      });
      g.stroke();
    };
    line(trace.lag, lagMax, css.getPropertyValue('--lag').trim());
    line(trace.duty, dutyMax, css.getPropertyValue('--accent').trim());
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = css.getPropertyValue('--accent').trim();
    g.textAlign = 'left';
    g.fillText((100 * dutyMax).toFixed(0) + ' %', 2, 11);
    g.fillStyle = css.getPropertyValue('--lag').trim();
    g.textAlign = 'right';
    g.fillText(lagMax.toFixed(2) + ' s', w - 2, 11);
    g.fillStyle = css.getPropertyValue('--dim').trim();
    g.textAlign = 'left';
    g.fillText('−' + Math.round(span / 60000) + ' min', 2, h - 4);
    canvas.dataset.points = String(trace.at.length);
  }

  function clocks(list, time) {
    for (const c of list) {
      let t = traces.get(c.id);
      if (c.trace) {
        t = { at: Array.from(c.trace.at), duty: Array.from(c.trace.duty), lag: Array.from(c.trace.lag) };
        traces.set(c.id, t);
      } else {
        if (!t) { t = { at: [], duty: [], lag: [] }; traces.set(c.id, t); }
        if (!t.at.length || time - t.at[t.at.length - 1] >= 1000) {
          t.at.push(time); t.duty.push(c.duty); t.lag.push(c.lag);
        }
        while (t.at.length && t.at[0] < time - WINDOW_MS) { t.at.shift(); t.duty.shift(); t.lag.shift(); }
      }
    }
    cards($('clocks'), list, (c) => c.id, (card, c) => {
      const h = el('h3');
      h.append(el('span', 'name', c.id), el('span', 'kind', 'clock'));
      const legend = el('div', 'legend');
      legend.append(el('span', 'duty'), el('span', 'lag'), el('span', 'dim ticks'));
      card.append(h, legend, el('div', 'behind bad'), el('canvas', 'plot'));
    }, (card, c) => {
      card.querySelector('.legend .duty').textContent = 'duty ' + (100 * c.duty).toFixed(1) + ' %';
      card.querySelector('.legend .lag').textContent = 'lag ' + c.lag.toFixed(3) + ' s';
      card.querySelector('.legend .ticks').textContent = c.ticks + ' frames';
      // A clock that cannot keep up says so: since when, and what it skipped instead of catching up.
      const behind = [];
      if (c.behindSince) behind.push('behind real time since ' + new Date(c.behindSince).toLocaleString());
      if (c.skipped > 0) behind.push('skipped ' + c.skipped.toFixed(2) + ' s');
      card.querySelector('.behind').textContent = behind.join(', ');
      draw(card.querySelector('canvas'), traces.get(c.id));
    });
  }

  // The stations of the process, when it runs several: each with whether it is on air.
  function stations(list) {
    $('stations-section').hidden = list.length === 0;
    const ul = $('stations');
    ul.replaceChildren(...list.map((st) => {
      const li = el('li', st.onAir ? 'up' : 'down');
      li.textContent = st.name + (st.onAir ? ' · on air' : ' · not on air (' + st.failures + ' failed load(s))');
      return li;
    }));
  }

  function show(s) {
    $('station').textContent = s.station;
    document.title = s.station + ' · Groovecast';
    $('uptime').textContent = 'on air since ' + new Date(s.startedAt).toLocaleString();
    const sc = s.scheduler;
    $('scheduler').textContent = 'scheduler ' + (100 * sc.busy).toFixed(1) + ' % busy on ' + sc.threads
      + ' thread(s), blocking pool ' + sc.blockingRunning + ' running / ' + sc.blockingQueued + ' queued';
    stations(s.stations || []);
    outputs(s.outputs);
    clocks(s.clocks, s.time);
    inputs(s.inputs);
    queues(s.queues);
    rtmp(s.rtmp || []);
  }

  function connect() {
    const link = $('link');
    const events = new EventSource('api/events');
    const handle = (e) => {
      link.textContent = 'live';
      link.className = 'link up';
      show(JSON.parse(e.data));
    };
    events.addEventListener('full', handle);
    events.onmessage = handle;
    events.onerror = () => {
      link.textContent = 'reconnecting…';
      link.className = 'link down';
      // An error status (a station starting) closes an EventSource for good: open a new one.
      if (events.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    };
  }

  fetch('api/whoami').then((r) => r.json()).then((who) => {
    loggedIn = who.loggedIn;
    $('login').hidden = !who.buttons || who.loggedIn;
    for (const b of document.querySelectorAll('.action')) b.hidden = !loggedIn;
  }).catch(() => {});
  connect();
})();
