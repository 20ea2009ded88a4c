// droidmcp driven by the official MCP TypeScript SDK (npm `@modelcontextprotocol/sdk`), over stdio or
// streamable HTTP, on the SDK's default protocol version (1.x: the session-based `2025-11-25`).
//
// Usage: node mcp_client_test.mjs SDK_DIR stdio /path/to/droidmcp
//        node mcp_client_test.mjs SDK_DIR http http://127.0.0.1:PORT/mcp
// SDK_DIR is the npm prefix the SDK is installed under. Checks what tests/python/mcp_client_test.py
// checks about digests, history and steps: a `screen` digest aims a later `tap`, a moved element is
// followed, a gone one refused; `history` lists the steps and the refusals apart; in a task episode a
// refused call costs no step and every action reply says how many are left. Exits non-zero on failure.

import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";

const [sdkDir, kind, target] = process.argv.slice(2);
const require = createRequire(join(resolve(sdkDir), "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

const textOf = (r) => r.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");

function elementLine(screen, pattern) {
  return screen.split("\n").find((l) => /^\d+ /.test(l) && pattern.test(l)) ?? null;
}

function elementId(screen, pattern) {
  const line = elementLine(screen, pattern);
  assert.ok(line, `no element matches ${pattern} in:\n${screen}`);
  return Number(line.split(" ")[0]);
}

async function call(c, name, args, expectError = false) {
  const r = await c.callTool({ name, arguments: args });
  assert.equal(Boolean(r.isError), expectError, `${name} ${JSON.stringify(args)}: ${textOf(r)}`);
  return r;
}

async function run(c) {
  const tools = (await c.listTools()).tools.map((t) => t.name);
  for (const t of ["screen", "tap", "history", "device_status", "task_start"]) {
    assert.ok(tools.includes(t), `missing tool ${t}`);
  }
  await call(c, "press_key", { key: "home" });
  await call(c, "open_app", { app: "Settings" });
  let r = await call(c, "screen", {});
  const digest = r.structuredContent.digest;
  assert.ok(textOf(r).includes(`digest ${digest}`));
  const screen = textOf(r);
  const top = elementId(screen, /: Network & internet( \||$)/);
  const low = elementId(screen, /: Display( \||$)/);

  await call(c, "swipe", { direction: "up", distance: 700 });
  const moved = textOf(await call(c, "screen", {}));
  assert.equal(elementLine(moved, /: Network & internet( \||$)/), null, moved);
  assert.notEqual(elementId(moved, /: Display( \||$)/), low, moved);

  const before = (await call(c, "history", { limit: 100 })).structuredContent;
  r = await call(c, "tap", { element: top, digest }, true);
  assert.match(textOf(r), /no longer on screen/);
  const after = (await call(c, "history", { limit: 100 })).structuredContent;
  assert.equal(after.total - after.refused, before.total - before.refused);
  assert.equal(after.refused, before.refused + 1);

  r = await call(c, "tap", { element: low, digest, observe: true });
  assert.ok(textOf(r).includes(`#${low} is now #`), textOf(r));
  const h = await call(c, "history", { limit: 100 });
  assert.ok(h.structuredContent.steps.some((s) => s.kind === "tap" && !s.refused), textOf(h));

  const list = textOf(await call(c, "task_list", {}));
  const task = list.match(/^(\S+) \(\d+ steps\)/m)[1];
  const started = (await call(c, "task_start", { task })).structuredContent;
  r = await call(c, "tap", { element: 99999 }, true);
  assert.ok(textOf(r).includes(`not counted as a step; ${started.max_steps} steps left`), textOf(r));
  r = await call(c, "press_key", { key: "home" });
  assert.ok(textOf(r).includes(`episode step 1, ${started.max_steps - 1} left`), textOf(r));
  await call(c, "task_finish", { episode: started.episode });
  console.log(`digests followed and refused, history ${h.structuredContent.total} entries, ` +
    `episode ${started.episode}: refusal free, ${started.max_steps - 1} steps left after one action`);
}

const client = new Client({ name: "droidmcp-ts-test", version: "1" });
const transport = kind === "stdio"
  ? new StdioClientTransport({ command: target, args: ["serve", "--stdio"] })
  : new StreamableHTTPClientTransport(new URL(target));
await client.connect(transport);
try {
  await run(client);
  console.log(`mcp-typescript ${kind}: passed`);
} finally {
  await client.close();
}
