import { appTool, appView, forAppHosts, type McpServer, structured } from "mcpkit/server";
import { z } from "zod";

const VIEW = "ui://everything/greeting";

/**
 * The view: a plain page that speaks the MCP Apps protocol over postMessage (ext-apps
 * §Communication Protocol): ui/initialize, then the tool's input and result from the host;
 * its button calls an app-only tool through the host, and it logs and reports its size.
 */
const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Greeting</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; padding: 18px 20px; color: #1b1f24; background: #fff; }
  body.dark { color: #e6e8ec; background: #171a21; }
  h1 { font-size: 22px; margin: 0 0 8px; }
  .count { font-size: 34px; font-weight: 700; }
  button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #3a5bd9; background: #3a5bd9; color: #fff; cursor: pointer; }
  #status, #input { color: #5d6673; font-size: 13px; }
</style></head>
<body>
  <h1 id="greeting">Waiting for the host…</h1>
  <p>Count: <span class="count" id="count">0</span></p>
  <button id="increment" type="button">Add one</button>
  <p id="input"></p>
  <p id="status">not initialized</p>
<script>
  let nextId = 1;
  let count = 0;
  const pending = new Map();
  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const notify = (method, params) => send({ method, params });
  const show = (id, text) => { document.getElementById(id).textContent = text; };
  const resized = () => notify("ui/notifications/size-changed", { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight });
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (m.id !== undefined && pending.has(m.id)) {
      const { resolve, reject } = pending.get(m.id);
      pending.delete(m.id);
      return m.error ? reject(new Error(m.error.message)) : resolve(m.result);
    }
    if (m.method === "ui/notifications/tool-input") show("input", "input: " + JSON.stringify(m.params.arguments));
    if (m.method === "ui/notifications/tool-result") {
      const data = m.params.structuredContent || {};
      show("greeting", data.greeting || "(no greeting)");
      count = data.count || 0;
      show("count", String(count));
    }
  });
  document.getElementById("increment").addEventListener("click", async () => {
    try {
      const result = await request("tools/call", { name: "test_app_increment", arguments: { count } });
      count = result.structuredContent.count;
      show("count", String(count));
      notify("notifications/message", { level: "info", data: "count is now " + count });
    } catch (error) {
      show("status", "error: " + error.message);
    }
  });
  request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "everything-greeting", version: "1.0.0" },
    appCapabilities: {},
  }).then((init) => {
    if (init.hostContext && init.hostContext.theme === "dark") document.body.classList.add("dark");
    show("status", "initialized by " + init.hostInfo.name);
    notify("ui/notifications/initialized", {});
    resized();
  });
</script>
</body></html>`;

/** MCP Apps (io.modelcontextprotocol/ui): a tool with an HTML view, and a tool only that view calls. */
export function registerApp(server: McpServer): void {
  // Listed to app hosts only (ext-apps: servers MAY leave UI-only resources out of resources/list).
  appView(
    server,
    VIEW,
    { name: "greeting-view", title: "Greeting view", ui: { prefersBorder: true }, visible: forAppHosts },
    () => HTML,
  );
  appTool(
    server,
    "test_app",
    {
      title: "Greeting app",
      description: "Greets someone; hosts that render MCP Apps show it in a view with a counter",
      input: z.object({ name: z.string().default("world") }),
      output: z.object({ greeting: z.string(), count: z.number() }),
      ui: { resourceUri: VIEW },
    },
    ({ name }) => structured({ greeting: `Hello, ${name}!`, count: 0 }),
  );
  appTool(
    server,
    "test_app_increment",
    {
      description: "Adds one to the view's counter (called by the view only)",
      input: z.object({ count: z.number() }),
      output: z.object({ count: z.number() }),
      ui: { resourceUri: VIEW, visibility: ["app"] },
      visible: forAppHosts,
    },
    ({ count }) => structured({ count: count + 1 }),
  );
}
