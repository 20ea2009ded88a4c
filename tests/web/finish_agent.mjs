// A command agent for `droidmcp run --agent-cmd` that says "done" at once without acting, written with
// the official MCP TypeScript SDK: it gives the web suite a stored run (every episode a false
// complete) for the page's Runs view. Reads DROIDMCP_MCP_URL and DROIDMCP_EPISODE as every command
// agent does (docs/runs.md); WEB_NODE_DIR says where the npm packages are.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.env.WEB_NODE_DIR, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const client = new Client({ name: 'finish-at-once', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.DROIDMCP_MCP_URL)));
const result = await client.callTool({ name: 'task_finish', arguments: { episode: process.env.DROIDMCP_EPISODE } });
console.log(result.content.map((c) => c.text).join('\n'));
await client.close();
process.exit(result.isError ? 1 : 0);
