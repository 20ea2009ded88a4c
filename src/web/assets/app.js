// The live page: draws what GET /v1/screen returns, listens to /v1/events, and turns gestures into
// POST /v1/actions. No logic beyond that: every action goes through the server's one action path.
'use strict';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const LONG_PRESS_MS = 500;   // held this long without moving: a long press
const DRAG_PX = 10;          // moved more than this (CSS px): a swipe

const state = {
  device: params.get('device') || '',
  screen: null,        // the last ScreenOut
  selected: null,      // selected element id
  events: null,        // EventSource
  wanted: 0,           // refreshes asked for
  done: 0,             // refreshes completed
  busy: false,
  poll: Number(params.get('poll') ?? 10) * 1000,
  demo: null,          // the episode id of the demonstration being recorded
};

// ---- API ---------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(kind, message, status) { super(message); this.kind = kind; this.status = status; }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError('unreachable', `the server did not answer: ${e.message}`, 0);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { /* not JSON */ }
  if (!res.ok) {
    if (data && data.error) throw new ApiError(data.kind || 'error', data.error, res.status);
    throw new ApiError('http', `${res.status} ${res.statusText}: ${text.slice(0, 200)}`, res.status);
  }
  return data;
}

const q = (extra = {}) => {
  const p = new URLSearchParams();
  if (state.device) p.set('device', state.device);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
};

function showError(e) {
  const kind = e.kind ? `${e.kind}: ` : '';
  $('error-text').textContent = kind + e.message;
  $('error').hidden = false;
  $('error').dataset.kind = e.kind || '';
}

function clearError() { $('error').hidden = true; $('error-text').textContent = ''; }

function status(text) { $('status').textContent = text; }

// ---- The screen --------------------------------------------------------------------------------

function refresh() {
  state.wanted += 1;
  if (!state.busy) pump();
}

async function pump() {
  state.busy = true;
  try {
    while (state.done < state.wanted) {
      const target = state.wanted;
      try {
        const s = await api('GET', '/v1/screen' + q({ screenshot: 'true', max_edge: '1024' }));
        draw(s);
      } catch (e) {
        showError(e);
      }
      state.done = target;
    }
  } finally {
    state.busy = false;
  }
}

function draw(s) {
  // The device opens on its first screen: list it as open then.
  if (!state.screen) loadDevices();
  state.screen = s;
  const img = $('screen');
  if (s.screenshot) img.src = `data:${s.screenshot.mime};base64,${s.screenshot.data}`;
  img.alt = `screen of ${s.serial}`;
  $('phone').dataset.generation = s.generation;
  $('phone').dataset.digest = s.digest;
  const fg = s.foreground ? s.foreground.package : 'no foreground app';
  $('foreground').textContent = `${s.serial} · ${fg}`;
  $('phone').dataset.foreground = s.foreground ? s.foreground.package : '';
  $('element-summary').textContent = `${s.elements.length} elements · ${s.size[0]}×${s.size[1]} · digest ${s.digest}`;
  drawList(s);
  drawOverlay(s);
  if (state.selected != null) {
    const e = s.elements.find((x) => x.id === state.selected);
    if (e) inspect(e, false); else { state.selected = null; $('inspect').hidden = true; }
  }
}

function drawList(s) {
  const ol = $('elements');
  ol.replaceChildren(...s.elements.map((e) => {
    const li = document.createElement('li');
    li.textContent = e.line;
    li.dataset.id = e.id;
    if (e.id === state.selected) li.className = 'sel';
    li.addEventListener('click', () => inspect(e, true));
    li.addEventListener('mouseenter', () => highlight(e.id));
    li.addEventListener('mouseleave', () => highlight(state.selected));
    return li;
  }));
}

function pct(v, total) { return `${(100 * v / total).toFixed(3)}%`; }

function drawOverlay(s) {
  const ov = $('overlay');
  const [w, h] = s.size;
  ov.replaceChildren(...s.elements.map((e) => {
    const [l, t, r, b] = e.bounds;
    const d = document.createElement('div');
    d.className = 'box' + (e.id === state.selected ? ' sel' : '');
    d.dataset.id = e.id;
    d.style.left = pct(l, w); d.style.top = pct(t, h);
    d.style.width = pct(r - l, w); d.style.height = pct(b - t, h);
    d.title = e.line;
    const label = document.createElement('span');
    label.textContent = e.id;
    d.appendChild(label);
    return d;
  }));
}

function highlight(id) {
  for (const d of $('overlay').children) d.classList.toggle('sel', Number(d.dataset.id) === id);
}

function inspect(e, scroll) {
  state.selected = e.id;
  for (const li of $('elements').children) li.classList.toggle('sel', Number(li.dataset.id) === e.id);
  highlight(e.id);
  $('inspect').hidden = false;
  $('inspect-title').textContent = `#${e.id} ${e.role}${e.text ? ' · ' + e.text : e.desc ? ' · ' + e.desc : ''}`;
  $('inspect-selector').textContent = e.selector || '(no unique selector)';
  const rows = [
    ['id', e.id], ['role', e.role], ['bounds', `[${e.bounds.join(',')}]`], ['center', e.center.join(',')],
    ['actions', e.actions.join(' ')], ['state', e.state.join(' ')], ['folded', e.folded.join(' | ')],
    ...e.attributes,
  ];
  $('inspect-attrs').replaceChildren(...rows.filter(([, v]) => v !== '' && v != null).map(([k, v]) => {
    const tr = document.createElement('tr');
    const a = document.createElement('td'); a.textContent = k;
    const b = document.createElement('td'); b.textContent = String(v);
    tr.append(a, b);
    return tr;
  }));
  if (scroll) {
    const li = [...$('elements').children].find((x) => Number(x.dataset.id) === e.id);
    if (li) li.scrollIntoView({ block: 'nearest' });
  }
}

// ---- Acting ------------------------------------------------------------------------------------

async function act(action) {
  status(`${action.kind}…`);
  try {
    const r = await api('POST', '/v1/actions', { device: state.device || undefined, action });
    clearError();
    // The same one-line reply an MCP agent reads: what was hit and what resulted.
    status(`${r.echo}${r.detail ? ' — ' + r.detail : ''}${r.no_effect ? ' — no effect: ' + r.no_effect : ''}`);
    return r;
  } catch (e) {
    showError(e);
    status(`${action.kind} failed`);
    return null;
  } finally {
    demoUpdate();
  }
}

/// Screen pixels of a pointer event on the phone image.
function toScreen(ev) {
  const img = $('screen');
  const rect = img.getBoundingClientRect();
  const s = state.screen;
  if (!s || rect.width === 0) return null;
  const x = Math.round((ev.clientX - rect.left) * s.size[0] / rect.width);
  const y = Math.round((ev.clientY - rect.top) * s.size[1] / rect.height);
  return { x: Math.max(0, Math.min(s.size[0] - 1, x)), y: Math.max(0, Math.min(s.size[1] - 1, y)) };
}

function elementAt(p) {
  const hits = state.screen.elements.filter((e) =>
    p.x >= e.bounds[0] && p.x < e.bounds[2] && p.y >= e.bounds[1] && p.y < e.bounds[3]);
  hits.sort((a, b) => (a.bounds[2] - a.bounds[0]) * (a.bounds[3] - a.bounds[1]) -
    (b.bounds[2] - b.bounds[0]) * (b.bounds[3] - b.bounds[1]));
  return hits[0];
}

function dot(ev) {
  const rect = $('phone').getBoundingClientRect();
  const d = document.createElement('div');
  d.className = 'dot';
  d.style.left = `${ev.clientX - rect.left - 6}px`;
  d.style.top = `${ev.clientY - rect.top - 6}px`;
  $('trail').appendChild(d);
  setTimeout(() => d.remove(), 600);
}

function setupGestures() {
  const phone = $('phone');
  let down = null;
  phone.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || !state.screen) return;
    phone.setPointerCapture(ev.pointerId);
    down = { ev, at: performance.now(), p: toScreen(ev) };
    dot(ev);
  });
  phone.addEventListener('pointerup', (ev) => {
    if (!down) return;
    const start = down;
    down = null;
    const end = toScreen(ev);
    if (!start.p || !end) return;
    const moved = Math.hypot(ev.clientX - start.ev.clientX, ev.clientY - start.ev.clientY);
    const held = performance.now() - start.at;
    if (ev.shiftKey) {
      const e = elementAt(start.p);
      if (e) { selectTab('elements'); inspect(e, true); }
      return;
    }
    if (moved > DRAG_PX) {
      dot(ev);
      act({ kind: 'swipe', from: start.p, to: end, duration_ms: Math.round(Math.min(2000, Math.max(100, held))) });
    } else if (held >= LONG_PRESS_MS) {
      act({ kind: 'long_press', at: start.p, duration_ms: Math.round(Math.max(600, held)) });
    } else {
      act({ kind: 'tap', at: start.p });
    }
  });
  phone.addEventListener('pointercancel', () => { down = null; });
  phone.addEventListener('keydown', (ev) => {
    const keys = { Escape: 'back', Backspace: 'del', Enter: 'enter', Home: 'home' };
    if (keys[ev.key]) { ev.preventDefault(); act({ kind: 'press_key', key: keys[ev.key] }); }
  });
}

// ---- Devices, apps, live feed -----------------------------------------------------------------

async function loadDevices() {
  try {
    const list = await api('GET', '/v1/devices');
    const sel = $('device');
    const current = state.device || list.default;
    const specs = list.devices.map((d) => d.spec);
    if (!specs.includes(current)) specs.push(current);
    sel.replaceChildren(...specs.map((spec) => {
      const d = list.devices.find((x) => x.spec === spec);
      const o = document.createElement('option');
      o.value = spec;
      o.textContent = d ? `${spec}${d.serial !== spec ? ' (' + d.serial + ')' : ''}${d.model ? ' ' + d.model : ''}${d.state !== 'device' ? ' · ' + d.state : ''}${d.open ? '' : ' · not open yet'}` : spec;
      o.disabled = !!d && d.state !== 'device';
      return o;
    }));
    sel.value = current;
    sel.title = list.adb ? `Devices this server can open. ${list.adb}` : 'Devices this server can open (embedded phones and adb devices)';
  } catch (e) {
    showError(e);
  }
}

async function loadApps() {
  try {
    const list = await api('GET', '/v1/apps' + q());
    const filter = $('app-filter').value.trim().toLowerCase();
    $('apps').replaceChildren(...list.apps
      .filter((a) => !filter || a.label.toLowerCase().includes(filter) || a.package.includes(filter))
      .map((a) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.package = a.package;
        b.textContent = a.label;
        const small = document.createElement('small');
        small.textContent = a.package;
        b.appendChild(small);
        b.addEventListener('click', () => act({ kind: 'open_app', app: a.package }));
        return b;
      }));
  } catch (e) {
    showError(e);
  }
}

function listen() {
  if (state.events) state.events.close();
  const es = new EventSource('/v1/events' + q());
  state.events = es;
  es.addEventListener('screen', (ev) => {
    $('live').className = 'on';
    const change = JSON.parse(ev.data);
    $('live').dataset.generation = change.generation;
    refresh();
  });
  es.onerror = () => { $('live').className = 'off'; };
}

async function switchDevice(spec) {
  const previous = state.device;
  state.device = spec;
  state.selected = null;
  $('inspect').hidden = true;
  try {
    const s = await api('GET', '/v1/screen' + q({ screenshot: 'true' }));
    clearError();
    draw(s);
    const url = new URL(location.href);
    url.searchParams.set('device', spec);
    history.replaceState(null, '', url);
    listen();
    loadDevices();
    loadApps();
  } catch (e) {
    showError(e);
    state.device = previous;
    loadDevices();
  }
}

function selectTab(name) {
  for (const b of document.querySelectorAll('.tabs button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const t of document.querySelectorAll('.tab')) t.hidden = t.id !== `tab-${name}`;
  window.dispatchEvent(new CustomEvent('tab', { detail: name }));
}

// ---- Demonstrations ---------------------------------------------------------------------------

async function loadTasks() {
  if ($('demo-task').options.length) return;
  try {
    const list = await api('GET', '/v1/tasks');
    $('demo-task').replaceChildren(...list.tasks.map((t) => {
      const o = document.createElement('option');
      o.value = t.id;
      o.textContent = t.id;
      o.title = t.goal;
      return o;
    }));
  } catch (e) {
    showError(e);
  }
}

function drawDemo(d) {
  state.demo = d.status === 'recording' ? d.episode : null;
  $('demo').hidden = false;
  $('demo').dataset.status = d.status;
  $('demo').dataset.episode = d.episode;
  $('demo-goal').textContent = d.goal;
  $('demo-meta').textContent = `${d.task} · episode ${d.episode} · ${d.device} · ${d.steps} of at most ${d.max_steps} steps · ${d.status}`;
  $('demo-finish').hidden = d.status !== 'recording';
  $('demo-result').textContent = d.success == null ? '' : `checks: ${d.success ? 'success' : 'failure'} (score ${d.score})`;
  $('demo-result').className = d.success == null ? '' : d.success ? 'pass' : 'fail';
  $('demo-files').replaceChildren(...d.files.map((f) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/v1/demos/${encodeURIComponent(d.episode)}/files/${encodeURIComponent(f)}`;
    a.textContent = f;
    a.download = `${d.episode}-${f}`;
    li.appendChild(a);
    return li;
  }));
}

async function demoStart(ev) {
  ev.preventDefault();
  const body = { task: $('demo-task').value, device: state.device || undefined };
  const seed = $('demo-seed').value.trim();
  if (seed !== '') body.seed = Number(seed);
  try {
    const d = await api('POST', '/v1/demos', body);
    clearError();
    drawDemo(d);
    status(`recording ${d.task}: do it on the phone, then Finish`);
    refresh();
  } catch (e) {
    showError(e);
  }
}

async function demoUpdate() {
  if (!state.demo) return;
  try { drawDemo(await api('GET', `/v1/demos/${encodeURIComponent(state.demo)}`)); } catch (e) { showError(e); }
}

async function demoFinish() {
  if (!state.demo) return;
  try {
    const d = await api('POST', `/v1/demos/${encodeURIComponent(state.demo)}/finish`);
    clearError();
    drawDemo(d);
    refresh();
  } catch (e) {
    showError(e);
  }
}

// ---- Episodes: replays to watch, the review queue --------------------------------------------

const watchState = { id: null, timer: null };

async function loadReplayTasks() {
  if ($('replay-task').options.length) return;
  try {
    const list = await api('GET', '/v1/tasks');
    $('replay-task').replaceChildren(...list.tasks.map((t) => {
      const o = document.createElement('option');
      o.value = t.id; o.textContent = t.id; o.title = t.goal;
      return o;
    }));
  } catch (e) { showError(e); }
}

async function loadReview() {
  try {
    const q = await api('GET', '/v1/review');
    $('review').replaceChildren(...q.items.map((i) => {
      const li = document.createElement('li');
      li.dataset.episode = i.episode;
      const a = document.createElement('a');
      a.href = '#'; a.textContent = `${i.episode} · ${i.task || ''}`;
      a.addEventListener('click', (ev) => { ev.preventDefault(); watchEpisode(i.episode); });
      const why = document.createElement('small');
      why.textContent = ` ${i.outcome} (panel ${i.panel}, rule ${i.rule || '–'}): ` + i.judges.map(([j, v]) => `${j} ${v}`).join(', ');
      li.append(a, why);
      return li;
    }));
    if (!q.items.length) $('review').innerHTML = '<li class="muted">nothing to review</li>';
  } catch (e) {
    if (e.kind !== 'not_found') showError(e);
    $('review').innerHTML = `<li class="muted">${e.message}</li>`;
  }
}

function screenBlock(title, text) {
  const d = document.createElement('details');
  const s = document.createElement('summary'); s.textContent = title;
  const pre = document.createElement('pre'); pre.textContent = text ?? '(not recorded)';
  d.append(s, pre);
  return d;
}

function drawWatch(w) {
  const e = w.episode;
  $('watch').hidden = false;
  $('watch').dataset.episode = e.id;
  $('watch').dataset.status = e.status;
  $('watch').dataset.steps = w.steps.length;
  $('watch').dataset.judges = w.judges.length;
  $('watch').dataset.human = w.human ? w.human.verdict : '';
  $('watch-goal').textContent = e.goal;
  $('watch-meta').textContent = `${e.task} · ${e.id} · ${e.device} · ${e.status} · ${w.steps.length} of at most ${e.max_steps} steps` +
    (e.verdict ? ` · checks: ${e.verdict}${e.provisional ? ' (provisional)' : ''} (score ${e.score})` : '');
  const v = [];
  for (const j of w.judges) v.push(`${j.judge} (${j.family}, ${j.role}): ${j.verdict} ${j.confidence.toFixed(2)} — ${j.error || j.reason}`);
  if (w.human) v.push(`person (${w.human.reviewer}): ${w.human.verdict}${w.human.note ? ' — ' + w.human.note : ''}`);
  $('watch-verdicts').replaceChildren(...v.map((t) => { const p = document.createElement('div'); p.textContent = t; return p; }));
  $('watch-review').hidden = !w.judges.length;
  $('watch-checks').replaceChildren(...(e.checks || []).map((c) => {
    const tr = document.createElement('tr');
    tr.className = c.inconclusive ? '' : c.passed ? 'pass' : 'fail';
    for (const t of [c.id, c.inconclusive ? 'inconclusive' : c.passed ? 'passed' : 'failed', c.value, c.reason || '']) {
      const td = document.createElement('td'); td.textContent = t; tr.appendChild(td);
    }
    return tr;
  }));
  $('watch-steps').replaceChildren(...w.steps.map((st) => {
    const li = document.createElement('li');
    const a = st.action || {};
    const what = [a.kind, a.element ? `#${a.element.id} ${a.element.label ?? ''}` : '', a.point ? `@${a.point.join(',')}` : '', a.text ? JSON.stringify(a.text) : '', a.key || '', a.app || '', a.error ? '— ' + a.error : ''].filter(Boolean).join(' ');
    const head = document.createElement('div'); head.textContent = what;
    li.append(head, screenBlock('screen before', st.before), screenBlock('screen after', st.after));
    return li;
  }));
}

async function watchEpisode(id) {
  watchState.id = id;
  selectTab('episodes');
  clearTimeout(watchState.timer);
  const tick = async () => {
    if (watchState.id !== id) return;
    try {
      const w = await api('GET', `/v1/episodes/${encodeURIComponent(id)}/watch`);
      drawWatch(w);
    } catch (e) { showError(e); return; }
    // Steps, checks and judge verdicts arrive while it runs and after it ends; keep looking.
    watchState.timer = setTimeout(tick, 1000);
  };
  tick();
}

async function replayStart(ev) {
  ev.preventDefault();
  const body = { task: $('replay-task').value, solution: $('replay-solution').value,
    pace_ms: Number($('replay-pace').value || 0), device: state.device || undefined };
  try {
    const r = await api('POST', '/v1/replays', body);
    clearError();
    status(`replaying ${r.task} (${body.solution}) as episode ${r.episode}`);
    watchEpisode(r.episode);
  } catch (e) { showError(e); }
}

async function reviewVerdict(verdict) {
  if (!watchState.id) return;
  try {
    const r = await api('POST', `/v1/review/${encodeURIComponent(watchState.id)}`, { verdict, note: $('watch-note').value });
    clearError();
    status(`recorded ${r.verdict} for ${r.episode}; ${r.queue} left to review`);
    $('watch-note').value = '';
    loadReview();
  } catch (e) { showError(e); }
}

// ---- Runs --------------------------------------------------------------------------------------

const runState = { name: null, timer: null };

function cells(tr, texts) {
  for (const t of texts) { const td = document.createElement('td'); td.textContent = t; tr.appendChild(td); }
  return tr;
}

// A rate as `k/n (p%, 95% lo–hi%)`; `–` when nothing was counted.
function rateText(r) {
  if (!r || !r.n) return '–';
  const pct = (x) => `${Math.round(100 * x)}%`;
  return `${r.k}/${r.n} (${pct(r.rate)}, 95% ${pct(r.ci95[0])}–${pct(r.ci95[1])})`;
}

async function loadRuns() {
  try {
    const list = await api('GET', '/v1/runs');
    $('runs').replaceChildren(...list.runs.map((r) => {
      const tr = cells(document.createElement('tr'), [r.name, r.status, r.line]);
      tr.dataset.run = r.name;
      tr.classList.toggle('sel', r.name === runState.name);
      tr.addEventListener('click', () => showRun(r.name));
      return tr;
    }));
    if (!list.runs.length) $('runs').innerHTML = '<tr><td class="muted">no runs yet: start one with droidmcp run NAME</td></tr>';
  } catch (e) {
    if (e.kind !== 'not_found') showError(e);
    $('runs').innerHTML = '';
    cells($('runs').appendChild(document.createElement('tr')), [e.message]);
  }
}

function drawRun(r) {
  const rep = r.report || {};
  $('run').hidden = false;
  $('run').dataset.run = r.name;
  $('run').dataset.status = r.status;
  $('run').dataset.done = r.done;
  $('run-name').textContent = `${r.name} · ${r.status}`;
  $('run-line').textContent = r.line;
  $('run-error').textContent = r.error || '';
  const rows = [['instances', String(rep.instances ?? r.total)], ['success', rateText(rep.success)],
    ['false complete', rateText(rep.false_complete)], ['errored (not counted)', String(rep.errored ?? r.errored)]];
  for (const [tag, cols] of Object.entries(rep.by_tag || {})) rows.push([`tag ${tag}`, rateText(cols.all)]);
  for (const [env, rate] of Object.entries(rep.by_env || {})) rows.push([`environment ${env}`, rateText(rate)]);
  $('run-figures').replaceChildren(...rows.map((row) => cells(document.createElement('tr'), row)));
  const base = `/v1/runs/${encodeURIComponent(r.name)}`;
  // The plot changes as episodes finish; the done count keeps the browser from showing a stale one.
  $('run-plot').src = `${base}/report.svg?done=${r.done}`;
  $('run-md').href = `${base}/report.md`;
}

async function showRun(name) {
  runState.name = name;
  clearTimeout(runState.timer);
  const tick = async () => {
    if (runState.name !== name) return;
    let r;
    try { r = await api('GET', `/v1/runs/${encodeURIComponent(name)}`); } catch (e) { showError(e); return; }
    drawRun(r);
    loadRuns();
    // A running run is followed until it ends.
    if (r.status === 'running') runState.timer = setTimeout(tick, 2000);
  };
  tick();
}

// ---- Wiring ------------------------------------------------------------------------------------

function setup() {
  setupGestures();
  for (const b of document.querySelectorAll('#nav button')) {
    b.addEventListener('click', () => act({ kind: 'press_key', key: b.dataset.key }));
  }
  $('type-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = $('type-text').value;
    const r = await act({ kind: 'type_text', text, clear: $('type-clear').checked, submit: $('type-submit').checked });
    if (r) $('type-text').value = '';
  });
  $('overlay-toggle').addEventListener('change', (ev) => { $('overlay').hidden = !ev.target.checked; });
  $('refresh').addEventListener('click', refresh);
  $('error-close').addEventListener('click', clearError);
  $('device').addEventListener('change', (ev) => switchDevice(ev.target.value));
  $('device-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const spec = $('device-spec').value.trim();
    if (spec) switchDevice(spec);
  });
  $('app-filter').addEventListener('input', loadApps);
  $('demo-form').addEventListener('submit', demoStart);
  $('demo-finish').addEventListener('click', demoFinish);
  window.addEventListener('tab', (ev) => { if (ev.detail === 'record') loadTasks(); });
  window.addEventListener('tab', (ev) => { if (ev.detail === 'episodes') { loadReplayTasks(); loadReview(); } });
  window.addEventListener('tab', (ev) => { if (ev.detail === 'runs') loadRuns(); });
  $('replay-form').addEventListener('submit', replayStart);
  $('watch-form').addEventListener('submit', (ev) => { ev.preventDefault(); const id = $('watch-id').value.trim(); if (id) watchEpisode(id); });
  for (const b of document.querySelectorAll('#watch-review button')) b.addEventListener('click', () => reviewVerdict(b.dataset.verdict));
  for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => selectTab(b.dataset.tab));
  $('inspect-copy').addEventListener('click', () => navigator.clipboard?.writeText($('inspect-selector').textContent));
  $('inspect-tap').addEventListener('click', () => {
    if (state.selected != null) act({ kind: 'tap', at: { element: state.selected } });
  });
  // Time-driven changes (a clock, a timer) and devices driven from outside this server do not go
  // through the change feed; a slow poll catches them. `?poll=0` turns it off.
  if (state.poll > 0) setInterval(() => { if (!document.hidden) refresh(); }, state.poll);
  loadDevices();
  loadApps();
  listen();
}

window.droidmcp = { state, api, act, refresh, selectTab, showError, clearError, q, watchEpisode, loadReview, loadRuns, showRun };
setup();
