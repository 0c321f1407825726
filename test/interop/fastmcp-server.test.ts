/**
 * A fastmcp (npm `fastmcp`) server, test/interop/fixtures/fastmcp-server.mjs: directly over
 * stdio, and behind `mcpkit serve proxy` fronting it over stdio and over its HTTP stream.
 * Every case runs the same checks against each client.
 */
import { spawn } from "node:child_process";
import { Client, type ClientOptions } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, serveHttp } from "../serve/helpers.js";
import { firstText, freePort, THIRD_PARTY, waitFor } from "./helpers.js";

const [command, ...args] = THIRD_PARTY.fastmcp as [string, ...string[]];
const asked: string[] = [];
const answers: Partial<ClientOptions> = {
  roots: [{ uri: "file:///tmp/fastmcp-root", name: "root" }],
  elicitation: (params) => {
    asked.push(params.message);
    return { action: "accept", content: { ok: true } };
  },
  sampling: () => ({ role: "assistant", content: { type: "text", text: "autumn moonlight" }, model: "m" }),
};
const clients: Record<string, Client> = {};
let stopHttp = () => {};

beforeAll(async () => {
  const port = await freePort();
  const http = spawn(command, [...args, String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  stopHttp = () => http.kill("SIGTERM");
  const direct = new Client({ name: "fastmcp-direct", version: "1", ...answers });
  const [stdioProxy] = await Promise.all([
    serveHttp("proxy", ["--", command, ...args]),
    direct.connect(stdioClientTransport({ command, args, stderr: "ignore" })),
    waitFor(
      () =>
        fetch(`http://127.0.0.1:${port}/mcp`, { method: "GET" }).then(
          () => true,
          () => false,
        ),
      "fastmcp to listen",
      15_000,
    ),
  ]);
  clients.direct = direct;
  clients["serve proxy -- fastmcp (stdio)"] = await mcpkitOverHttp(stdioProxy.url, answers);
  const httpProxy = await serveHttp("proxy", [`http://127.0.0.1:${port}/mcp`]);
  clients["serve proxy <fastmcp over HTTP>"] = await mcpkitOverHttp(httpProxy.url, answers);
}, 60_000);

afterAll(async () => {
  await clients.direct?.close();
  await closeServed();
  stopHttp();
});

for (const name of ["direct", "serve proxy -- fastmcp (stdio)", "serve proxy <fastmcp over HTTP>"])
  describe(`fastmcp server, ${name}`, () => {
    const client = () => clients[name] as Client;

    it("lists tools, resources, templates and prompts, and declares what fastmcp declares", async () => {
      expect((await client().tools()).map((t) => t.name).sort()).toEqual(["add", "confirm", "count", "haiku", "roots"]);
      expect((await client().resources()).map((r) => r.uri)).toEqual(["memo://readme"]);
      expect((await client().resourceTemplates()).map((t) => t.uriTemplate)).toEqual(["memo://notes/{name}"]);
      expect((await client().prompts()).map((p) => p.name)).toEqual(["greet"]);
      expect(client().serverCapabilities).toEqual(clients.direct?.serverCapabilities);
    });

    it("calls, with progress and the call's logs", async () => {
      expect(firstText(await client().callTool("add", { a: 2, b: 3 }))).toBe("5");
      const progress: number[] = [];
      const logs: unknown[] = [];
      const stop = client().on("notifications/message", (p) => logs.push(p.data));
      await client().setLogLevel("debug");
      const counted = await client().callTool("count", { n: 3 }, { onprogress: (p) => progress.push(p.progress) });
      expect(firstText(counted)).toBe("counted to 3");
      expect(progress).toEqual([1, 2, 3]);
      // Through a proxy the logs may come on the GET stream, after the call's answer.
      await waitFor(() => logs.length >= 3, "the call's three log messages", 10_000);
      stop();
      expect(logs.length).toBe(3);
    });

    it("reads a resource and a template's, and completes template and prompt arguments", async () => {
      expect((await client().readResource("memo://readme")).contents[0]).toMatchObject({ text: "fastmcp readme" });
      expect((await client().readResource("memo://notes/alpha")).contents[0]).toMatchObject({ text: "note alpha" });
      const note = await client().complete({
        ref: { type: "ref/resource", uri: "memo://notes/{name}" },
        argument: { name: "name", value: "al" },
      });
      expect(note.completion.values).toEqual(["alpha", "alpine"]);
      const who = await client().complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "who", value: "A" },
      });
      expect(who.completion.values).toEqual(["Ada", "Alan"]);
      const prompt = await client().getPrompt("greet", { who: "Grace" });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello, Grace!" });
    });

    it("answers its elicitation, sampling and roots requests", async () => {
      expect(firstText(await client().callTool("confirm"))).toBe("accept:true");
      expect(asked.at(-1)).toBe("Proceed?");
      expect(firstText(await client().callTool("haiku"))).toBe("autumn moonlight");
      // fastmcp's HTTP stream never learns a client's capabilities (it logs "could not infer client
      // capabilities", with the official SDK's client too), so it never asks for roots there.
      if (name !== "serve proxy <fastmcp over HTTP>")
        await expect
          .poll(async () => firstText(await client().callTool("roots")), { timeout: 10_000 })
          .toBe("file:///tmp/fastmcp-root");
    });
  });
