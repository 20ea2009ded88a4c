// A droidmcp agent on the official MCP TypeScript SDK (`npm install @modelcontextprotocol/sdk`) and
// any OpenAI-compatible chat-completions model with function calling (Node 18+, no other package).
//
// `droidmcp run NAME --tasks 'aw.settings.*' --agent-cmd 'node examples/ts_agent.mjs'` starts it once
// per episode with DROIDMCP_MCP_URL, DROIDMCP_GOAL, DROIDMCP_MAX_STEPS and DROIDMCP_EPISODE; the model
// comes from OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY and OPENAI_MODEL
// (default gpt-4o-mini). The phone's tools are offered to the model as functions, as listed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const env = process.env;
const base = (env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/$/, "");
const episode = env.DROIDMCP_EPISODE;
const system = `You operate an Android phone towards the user's goal, one tool call at a time.
Call \`screen\` to see the element list, then act on elements by their ids. When the goal is reached
call \`task_finish\` with episode ${episode}; when it asks a question, \`task_answer\` with episode ${episode}.`;

const phone = new Client({ name: "droidmcp-ts-example", version: "1.0.0" });
await phone.connect(new StreamableHTTPClientTransport(new URL(env.DROIDMCP_MCP_URL)));
const { tools } = await phone.listTools();
const functions = tools.map((t) => ({
  type: "function",
  function: { name: t.name, description: t.description ?? "", parameters: t.inputSchema },
}));

const messages = [{ role: "system", content: system }, { role: "user", content: env.DROIDMCP_GOAL }];
const turns = 2 * Number(env.DROIDMCP_MAX_STEPS) + 6;
for (let turn = 0; turn < turns; turn++) {
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${env.OPENAI_API_KEY ?? "none"}` },
    body: JSON.stringify({ model: env.OPENAI_MODEL ?? "gpt-4o-mini", temperature: 0, messages, tools: functions }),
  });
  if (!response.ok) throw new Error(`model: HTTP ${response.status}: ${await response.text()}`);
  const message = (await response.json()).choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) {
    console.log(message.content);
    break;
  }
  for (const call of message.tool_calls) {
    const args = JSON.parse(call.function.arguments || "{}");
    const result = await phone.callTool({ name: call.function.name, arguments: args });
    const text = result.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
    console.log(`${call.function.name} ${JSON.stringify(args)} -> ${text.split("\n")[0]}`);
    messages.push({ role: "tool", tool_call_id: call.id, content: text });
  }
}
await phone.close();
