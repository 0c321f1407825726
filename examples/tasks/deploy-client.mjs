// @ts-check
// Starts a deployment as a task, goes away, comes back to confirm it, goes away again,
// and finally picks up the result the server finished while nobody was connected.
// node deploy-client.mjs http://127.0.0.1:3000/mcp
import process from "node:process";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";

/** Each visit is a new client on a new connection, as a new process would be. */
async function visit(/** @type {Partial<import("mcpkit/client").ClientOptions>} */ options = {}) {
  const client = new Client({ name: "deploy-client", version: "1.0.0", ...options });
  await client.connect(streamableHttpClientTransport(url));
  return client;
}

// 1. Start the deployment; keep only the task id. The task asks what the request that
//    started it declared, so declare elicitation: a later visit will answer.
const first = await visit({ capabilities: { elicitation: { form: {} } } });
const started = await first.callToolAsTask("deploy", { service: "billing" });
if (!started.task) throw new Error("The server answered at once");
const taskId = started.task.taskId;
console.log(`started task ${taskId}`);
await first.close();

// 2. Come back, follow the task, and confirm when it asks; leave once it is working again.
let confirmed = false;
const second = await visit({
  elicitation: (params) => {
    console.log(`asked: ${params.message} -> yes`);
    confirmed = true;
    return { action: "accept", content: { confirm: true } };
  },
});
for await (const state of second.task(taskId).updates()) {
  console.log(`${state.status}: ${state.statusMessage ?? ""}`);
  if (confirmed && state.status === "working") break;
}
await second.close();

// 3. Come back for the result, which was finished while this client was away.
const third = await visit();
const result = await third.task(taskId).result();
console.log(result.content[0]?.type === "text" ? result.content[0].text : result);
await third.close();
