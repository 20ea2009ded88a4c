// The live page end to end: headless Chromium (Debian) driven by playwright-core, the official MCP
// TypeScript SDK as a second client on the same phone, and the REST API read back directly.
// Usage: node page_test.mjs BASE_URL ARTIFACT_DIR WORK_DIR   (WEB_NODE_DIR: where the npm packages are,
// DROIDMCP_HARNESS_TOKEN: the server's harness token; the page and the REST API here are the harness's)
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const [base, artifacts, work] = process.argv.slice(2);
const harnessToken = process.env.DROIDMCP_HARNESS_TOKEN;
assert.ok(harnessToken, 'DROIDMCP_HARNESS_TOKEN is set');
const harnessAuth = { authorization: `Bearer ${harnessToken}` };
const require = createRequire(path.join(process.env.WEB_NODE_DIR, 'package.json'));
const { chromium } = require('playwright-core');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const CLOCK = 'com.google.android.deskclock';
const LAUNCHER = 'com.google.android.apps.nexuslauncher';

let page;
let shots = 0;
async function shot(name) {
  const file = path.join(artifacts, `${String(++shots).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

async function rest(method, route, body, headers = harnessAuth) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(base + route, init);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch (_) { /* checked by callers */ }
  return { status: res.status, json, text, type: res.headers.get('content-type') };
}

/// Clicks (or drags between) screen points on the phone image, as a person would with a mouse.
async function toPage(x, y) {
  return page.evaluate(([x, y]) => {
    const img = document.getElementById('screen');
    const r = img.getBoundingClientRect();
    const s = window.droidmcp.state.screen;
    return { x: r.left + x * r.width / s.size[0], y: r.top + y * r.height / s.size[1] };
  }, [x, y]);
}

async function clickScreen(x, y) {
  const p = await toPage(x, y);
  await page.mouse.click(p.x, p.y);
}

async function dragScreen(from, to) {
  const a = await toPage(from[0], from[1]);
  const b = await toPage(to[0], to[1]);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + (b.x - a.x) * i / 8, a.y + (b.y - a.y) * i / 8);
  await page.mouse.up();
}

const pageScreen = () => page.evaluate(() => window.droidmcp.state.screen);
const foreground = () => page.getAttribute('#phone', 'data-foreground');

async function waitForeground(pkg, timeout = 15000) {
  await page.waitForFunction((pkg) => document.getElementById('phone').dataset.foreground === pkg, pkg, { timeout });
}

async function waitElement(predicate, timeout = 15000) {
  await page.waitForFunction(predicate, null, { timeout });
}

function mcpIds(compact) {
  return compact.split('\n').map((l) => /^(\d+) /.exec(l)).filter(Boolean).map((m) => Number(m[1]));
}

const steps = [];
function step(name, fn) { steps.push([name, fn]); }

let mcp;

step('page loads and shows the launcher', async () => {
  // Without the harness token the page is the token form, and the harness API is shut.
  const form = await rest('GET', '/', undefined, {});
  assert.equal(form.status, 401);
  assert.match(form.text, /droidmcp_token=/);
  assert.equal((await rest('GET', '/v1/tasks', undefined, {})).status, 401);
  const index = await rest('GET', '/');
  assert.equal(index.status, 200);
  assert.match(index.type, /text\/html/);
  await page.goto(`${base}/?poll=0`);
  await page.evaluate(() => { window.__loadMarker = 'first-load'; });
  await waitForeground(LAUNCHER);
  await page.waitForFunction(() => document.getElementById('screen').naturalWidth > 0);
  const s = await pageScreen();
  assert.ok(s.elements.some((e) => e.text === 'Clock'), 'the launcher shows a Clock icon');
  await page.waitForSelector('#live.on');
  await shot('launcher');
});

step('clicking the Clock icon on the image opens Clock, on the page and in GET /v1/screen', async () => {
  const s = await pageScreen();
  const clock = s.elements.find((e) => e.text === 'Clock');
  await clickScreen(clock.center[0], clock.center[1]);
  await waitForeground(CLOCK);
  const r = await rest('GET', '/v1/screen?screenshot=false');
  assert.equal(r.status, 200);
  assert.equal(r.json.foreground.package, CLOCK);
  const status = await page.textContent('#status');
  assert.match(status, /^tap \(\d+,\d+\) → #\d+ \S+ "Clock" @\d+,\d+: ok in \d+ ms/, `the status line says what was hit: ${status}`);
  assert.match(status, /foreground now com\.google\.android\.deskclock/, `and what resulted: ${status}`);
  await shot('clock');
});

step('the app launcher opens an app by package', async () => {
  await page.click('#nav button[data-key=home]');
  await waitForeground(LAUNCHER);
  await page.click('.tabs button[data-tab=apps]');
  await page.waitForSelector(`#apps button[data-package="${CLOCK}"]`);
  await page.click(`#apps button[data-package="${CLOCK}"]`);
  await waitForeground(CLOCK);
  await page.click('.tabs button[data-tab=elements]');
  await page.click('#nav button[data-key=home]');
  await waitForeground(LAUNCHER);
});

step('dragging on the image swipes from where the finger went down to where it lifted; holding long-presses', async () => {
  const before = await pageScreen();
  const [w, h] = before.size;
  await dragScreen([w / 2, h * 0.75], [w / 2, h * 0.35]);
  await page.waitForFunction(() => /^swipe /.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  const m = /^swipe \((\d+),(\d+)\) -> \((\d+),(\d+)\)/.exec(await page.textContent('#status'));
  assert.ok(m, 'the status line reports the swipe');
  const [x1, y1, x2, y2] = m.slice(1).map(Number);
  const near = (a, b) => Math.abs(a - b) <= 12;
  assert.ok(near(x1, w / 2) && near(y1, h * 0.75) && near(x2, w / 2) && near(y2, h * 0.35), m[0]);
  // A swipe up on the home screen opens the app drawer, as on a Pixel; Home closes it again.
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.resource_id.endsWith('search_box_input')));
  await page.click('#nav button[data-key=home]');
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.text === 'Apps list' || e.desc === 'Apps list'));
  const p = await toPage(w / 2, h / 2);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.waitForTimeout(700);
  await page.mouse.up();
  await page.waitForFunction(() => /^long_press \(\d+,\d+\) \d+ms/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  assert.equal(await foreground(), LAUNCHER);
});

step('typing "Zoë 日本" into a field reads back from a dump', async () => {
  // Open the app drawer from its arrow on the image, tap its search field, type.
  const handle = (await pageScreen()).elements.find((e) => e.text === 'Apps list' || e.desc === 'Apps list');
  await clickScreen(handle.center[0], handle.center[1]);
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.resource_id.endsWith('search_box_input')));
  const field = (await pageScreen()).elements.find((e) => e.resource_id.endsWith('search_box_input'));
  await clickScreen(field.center[0], field.center[1]);
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.resource_id.endsWith('search_box_input') && e.state.includes('focused')));
  await page.fill('#type-text', 'Zoë 日本');
  await page.click('#type-form button[type=submit]');
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.text === 'Zoë 日本'));
  const dump = await rest('GET', '/v1/screen?screenshot=false&xml=true');
  assert.match(dump.json.xml, /text="Zoë 日本"/, 'the dump holds the typed text');
  await shot('typed-unicode');
});

step('the overlay draws the same ids as the MCP screen tool', async () => {
  await page.click('#overlay-toggle');
  await page.waitForSelector('#overlay:not([hidden]) .box');
  const pageIds = await page.$$eval('#overlay .box', (boxes) => boxes.map((b) => Number(b.dataset.id)));
  const result = await mcp.callTool({ name: 'screen', arguments: {} });
  assert.ok(!result.isError, JSON.stringify(result));
  // The element list is the tool's text (its structured content carries the digest and counts).
  const listing = result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  const ids = mcpIds(listing);
  assert.ok(ids.length >= 2, listing);
  assert.equal(ids.length, result.structuredContent.element_count, listing);
  assert.deepEqual(pageIds, ids);
  assert.equal(result.structuredContent.digest, await page.getAttribute('#phone', 'data-digest'));
  // Clicking an element in the side panel shows its attributes and a selector that finds it.
  const field = (await pageScreen()).elements.find((e) => e.resource_id.endsWith('search_box_input'));
  await page.click(`#elements li[data-id="${field.id}"]`);
  await page.waitForSelector('#inspect:not([hidden])');
  const selector = await page.textContent('#inspect-selector');
  assert.ok(selector.length > 0 && !selector.startsWith('('), selector);
  const attrs = await page.textContent('#inspect-attrs');
  assert.match(attrs, /resource-id/);
  assert.match(attrs, /search_box_input/);
  await shot('overlay-and-inspector');
});

step('while an MCP client acts on the same phone, the page follows without reload', async () => {
  const before = await page.getAttribute('#phone', 'data-generation');
  const r = await mcp.callTool({ name: 'open_app', arguments: { app: 'Calculator' } });
  assert.ok(!r.isError, JSON.stringify(r.content));
  await waitForeground('com.google.android.calculator', 5000);
  assert.notEqual(await page.getAttribute('#phone', 'data-generation'), before);
  const r2 = await mcp.callTool({ name: 'press_key', arguments: { key: 'home' } });
  assert.ok(!r2.isError);
  await waitForeground(LAUNCHER, 5000);
  assert.equal(await page.evaluate(() => window.__loadMarker), 'first-load', 'the page was not reloaded');
  await shot('followed-mcp');
});

step('record a two-step demonstration by hand and export it as a dataset', async () => {
  // Back closes the app drawer (still open from the typing step) onto the home screen.
  await page.click('#nav button[data-key=back]');
  await waitElement(() => window.droidmcp.state.screen.elements.some((e) => e.text === 'Calculator'));
  await page.click('.tabs button[data-tab=record]');
  await page.waitForSelector('#demo-task option[value="bmoca.calculator.input_1"]', { state: 'attached' });
  await page.selectOption('#demo-task', 'bmoca.calculator.input_1');
  await page.fill('#demo-seed', '0');
  await page.click('#demo-form button[type=submit]');
  await page.waitForSelector('#demo[data-status=recording]');
  const episode = await page.getAttribute('#demo', 'data-episode');
  assert.match(await page.textContent('#demo-goal'), /Calculator/);
  await waitForeground(LAUNCHER);
  // Step 1: the Calculator icon; step 2: the digit 1. Both are clicks on the image.
  const icon = (await pageScreen()).elements.find((e) => e.text === 'Calculator');
  await clickScreen(icon.center[0], icon.center[1]);
  await waitForeground('com.google.android.calculator');
  await page.waitForFunction(() => /· 1 of/.test(document.getElementById('demo-meta').textContent));
  const one = (await pageScreen()).elements.find((e) => e.role === 'btn' && (e.text === '1' || e.desc === '1'));
  await clickScreen(one.center[0], one.center[1]);
  await page.waitForFunction(() => /· 2 of/.test(document.getElementById('demo-meta').textContent));
  await shot('demo-recording');
  await page.click('#demo-finish');
  await page.waitForSelector('#demo[data-status=finished]');
  assert.match(await page.textContent('#demo-result'), /success/);
  // The episode is stored like an agent's: finished and scored.
  const ep = await rest('GET', `/v1/episodes/${episode}`);
  assert.equal(ep.status, 200);
  assert.equal(ep.json.finished, true);
  assert.equal(ep.json.last_success, true);
  assert.equal(ep.json.steps, 2, 'the episode recorded the two actions as its steps');
  // The dataset: one JSONL row per step with its screenshot, elements and both action forms.
  const links = await page.$$eval('#demo-files a', (as) => as.map((a) => a.getAttribute('href')));
  assert.equal(links.length, 3, links.join(' '));
  const jsonl = await rest('GET', links.find((l) => l.endsWith('steps.jsonl')));
  const rows = jsonl.text.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, 2);
  fs.mkdirSync(path.join(artifacts, 'dataset'), { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'dataset', 'steps.jsonl'), jsonl.text);
  for (const [i, row] of rows.entries()) {
    assert.equal(row.step, i);
    assert.equal(row.episode, episode);
    assert.equal(row.action.kind, 'tap');
    assert.equal(row.dual_gesture.length, 4);
    assert.ok(row.dual_gesture.every((v) => v >= 0 && v <= 1));
    const [ty, tx] = row.dual_gesture;
    assert.ok(Math.abs(tx * row.screen[0] - row.action.point[0]) <= 1 && Math.abs(ty * row.screen[1] - row.action.point[1]) <= 1);
    assert.ok(row.elements.length > 0 && row.element_list.length > 0);
    const png = await fetch(`${base}/v1/demos/${episode}/files/${row.image}`, { headers: harnessAuth });
    const bytes = Buffer.from(await png.arrayBuffer());
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    fs.writeFileSync(path.join(artifacts, 'dataset', row.image), bytes);
  }
  assert.equal(rows[0].foreground, LAUNCHER);
  assert.match(rows[0].elements, /Calculator/);
  assert.equal(rows[1].foreground, 'com.google.android.calculator');
  await shot('demo-finished');
  await page.click('.tabs button[data-tab=elements]');
});

step('a replay drives the phone: the page refuses actions on it and watches each step, the checks and the verdicts', async () => {
  await page.click('.tabs button[data-tab=episodes]');
  await page.waitForSelector('#replay-task option[value="bmoca.calculator.input_1"]', { state: 'attached' });
  await page.selectOption('#replay-task', 'bmoca.calculator.input_1');
  await page.selectOption('#replay-solution', 'golden');
  await page.fill('#replay-pace', '1500');
  await page.click('#replay-form button[type=submit]');
  await page.waitForSelector('#watch[data-episode]');
  const episode = await page.getAttribute('#watch', 'data-episode');
  assert.match(await page.textContent('#watch-goal'), /input 1 in Calculator/);
  // A click on the phone while the replay runs is refused, on the page and in the JSON shape.
  const s = await pageScreen();
  await clickScreen(s.size[0] / 2, s.size[1] / 2);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error-text'), new RegExp(`^busy: \\S+ is running a replay \\(episode ${episode}\\)`));
  const refused = await rest('POST', '/v1/actions', { action: { kind: 'press_key', key: 'home' } });
  assert.equal(refused.status, 409);
  assert.equal(refused.json.kind, 'busy');
  await shot('replay-busy');
  await page.click('#error-close');
  // The watch view fills in step by step, then shows the checks; the phone followed on the page.
  await page.waitForFunction(() => Number(document.getElementById('watch').dataset.steps) >= 1, null, { timeout: 15000 });
  await page.waitForSelector('#watch[data-status=ended]', { timeout: 20000 });
  assert.equal(await page.getAttribute('#watch', 'data-steps'), '2');
  assert.match(await page.textContent('#watch-checks'), /formula\s*passed/);
  assert.match(await page.textContent('#watch-meta'), /checks: success/);
  await waitForeground('com.google.android.calculator');
  const w = await rest('GET', `/v1/episodes/${episode}/watch`);
  assert.equal(w.json.steps[1].before, w.json.steps[0].after);
  // Judges split on it (rows as a panel run writes them); it enters the review queue.
  assert.equal((await rest('GET', '/v1/review')).status, 200);
  execFileSync('python3', ['-c', `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); ep = sys.argv[2]
cur = db.execute("INSERT INTO panel_verdicts (episode_id, mode, policy, panel_outcome, rule_result, outcome, decided_by, rule_judge_disagreement) VALUES (?, 'final_state', 'rule_first', 'needs_review', 'success', 'needs_review', 'judges split', 1)", (ep,))
for judge, family, verdict in (('alpha', 'a', 'success'), ('beta', 'b', 'failure')):
    db.execute("INSERT INTO judge_verdicts (episode_id, panel_id, judge, family, mode, role, verdict, confidence, reason, cited_steps, raw_replies, prompt_tokens, completion_tokens, latency_ms, cost_usd, calls) VALUES (?, ?, ?, ?, 'final_state', 'judge', ?, 0.7, 'the formula shows 1', '[]', '[]', 1, 1, 1, 0.0, 1)", (ep, cur.lastrowid, judge, family, verdict))
db.commit()
`, path.join(work, 'episodes.db'), episode]);
  await page.evaluate(() => window.droidmcp.loadReview());
  await page.waitForSelector(`#review li[data-episode="${episode}"]`);
  await page.click(`#review li[data-episode="${episode}"] a`);
  await page.waitForSelector('#watch[data-judges="2"]');
  assert.match(await page.textContent('#watch-verdicts'), /beta \(b, judge\): failure/);
  await shot('review-queue');
  await page.fill('#watch-note', 'the display shows 1');
  await page.click('#watch-review button[data-verdict=success]');
  await page.waitForSelector('#watch[data-human=success]');
  await page.waitForFunction((ep) => !document.querySelector(`#review li[data-episode="${ep}"]`), episode);
  const queue = await rest('GET', '/v1/review');
  assert.deepEqual(queue.json.items, []);
  await shot('reviewed');
  await page.click('.tabs button[data-tab=elements]');
});

step('bad input: malformed JSON, unknown device, unknown kind answer in the JSON error shape', async () => {
  const bad = await rest('POST', '/v1/actions', '{"action": {"kind": "tap", ');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.kind, 'bad_request');
  assert.match(bad.json.error, /malformed request body/);
  const unknownKind = await rest('POST', '/v1/actions', { action: { kind: 'teleport' } });
  assert.equal(unknownKind.status, 400);
  assert.match(unknownKind.json.error, /teleport/);
  const offScreen = await rest('POST', '/v1/actions', { action: { kind: 'tap', at: { x: 99999, y: 5 } } });
  assert.equal(offScreen.status, 400);
  assert.match(offScreen.json.error, /outside/);
  const unknown = await rest('GET', '/v1/screen?device=sim:nope');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.kind, 'not_found');
  // The page shows the same error, clearly, and keeps the phone it had.
  await page.fill('#device-spec', 'sim:nope');
  await page.click('#device-form button');
  await page.waitForSelector('#error:not([hidden])');
  const text = await page.textContent('#error-text');
  assert.match(text, /not_found: unknown device "sim:nope"/);
  await shot('error-unknown-device');
  await page.click('#error-close');
  // A bad action from the page (a stale element id) is shown too.
  await page.evaluate(() => window.droidmcp.act({ kind: 'tap', at: { element: 9999 } }));
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error-text'), /bad_request: element 9999 is not on the current screen/);
  await page.click('#error-close');
});

step('the overview picture: Settings with element boxes and one element inspected', async () => {
  await page.click('.tabs button[data-tab=apps]');
  await page.click('#apps button[data-package="com.android.settings"]');
  await waitForeground('com.android.settings');
  await page.click('.tabs button[data-tab=elements]');
  if (!(await page.isChecked('#overlay-toggle'))) await page.click('#overlay-toggle');
  const row = (await pageScreen()).elements.find((e) => e.role === 'btn' && e.line.includes('Network'));
  await page.click(`#elements li[data-id="${row.id}"]`);
  await page.waitForSelector('#inspect:not([hidden])');
  assert.match(await page.textContent('#inspect-selector'), /Network/);
  await shot('overview');
});

step('the Runs view shows a stored run: its figures with intervals and the plot', async () => {
  await page.click('.tabs button[data-tab=runs]');
  await page.waitForSelector('#runs tr[data-run="web-finish-at-once"]');
  await page.click('#runs tr[data-run="web-finish-at-once"]');
  await page.waitForSelector('#run[data-run="web-finish-at-once"]');
  const figures = await page.textContent('#run-figures');
  // Two instances; the agent said done at once on a phone with Wi-Fi off: no success, all false complete.
  assert.match(figures, /instances2/);
  assert.match(figures, /success0\/2 \(0%, 95% 0%–\d+%\)/);
  assert.match(figures, /false complete2\/2 \(100%/);
  await page.waitForFunction(() => { const img = document.getElementById('run-plot'); return img.complete && img.naturalWidth > 0; });
  const md = await rest('GET', '/v1/runs/web-finish-at-once/report.md');
  assert.equal(md.status, 200);
  assert.match(md.text, /web-finish-at-once/);
  const missing = await rest('GET', '/v1/runs/nope');
  assert.equal(missing.status, 404);
  assert.equal(missing.json.kind, 'not_found');
  const malformed = await rest('POST', '/v1/runs', '{"name": ');
  assert.equal(malformed.status, 400);
  assert.equal(malformed.json.kind, 'bad_request');
  await shot('runs');
  await page.click('.tabs button[data-tab=elements]');
});

step('/openapi.json documents the routes and the error shape', async () => {
  const r = await rest('GET', '/openapi.json');
  assert.equal(r.status, 200);
  assert.match(r.json.openapi, /^3\./);
  for (const p of ['/v1/devices', '/v1/screen', '/v1/actions', '/v1/apps', '/v1/events', '/v1/runs', '/v1/runs/{name}']) {
    assert.ok(r.json.paths[p], `${p} is documented`);
  }
  assert.ok(r.json.components.schemas.ErrorBody);
});

async function main() {
  // A fresh profile per run (Playwright passes it as --user-data-dir).
  const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(work, 'chromium-')), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 980 },
  });
  // What the token form stores: the harness token in a same-site cookie.
  await context.addCookies([{ name: 'droidmcp_token', value: encodeURIComponent(harnessToken), url: base, sameSite: 'Strict' }]);
  page = context.pages()[0] || await context.newPage();
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  mcp = new Client({ name: 'web-suite', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  let failed = 0;
  for (const [name, fn] of steps) {
    const t0 = Date.now();
    try {
      await fn();
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n${e.stack || e}`);
      await shot('failure').catch(() => {});
    }
  }
  // Errors the page logged on purpose (4xx answers) are fine; script errors are not.
  const scriptErrors = consoleErrors.filter((t) => !/status of 4\d\d/.test(t));
  if (scriptErrors.length) { failed++; console.log(`FAIL page script errors:\n${scriptErrors.join('\n')}`); }
  await mcp.close();
  await context.close();
  if (failed) { console.log(`${failed} failed`); process.exit(1); }
}

main().catch((e) => { console.error(e); process.exit(1); });
