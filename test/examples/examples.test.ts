import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { createHelloServer } from "../../examples/hello-server.mjs";

const run = promisify(execFile);
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

describe("examples", () => {
  it("hello-client starts hello-server over stdio and greets", async () => {
    const { stdout, stderr } = await run(process.execPath, [example("hello-client.mjs")], { timeout: 15_000 });
    expect(stdout).toContain("tools: greet");
    expect(stdout).toContain("Hello, Ada!");
    expect(stderr).toContain('[server log] "greeting Ada"');
  });

  it("hello-server's prompt and resource work in memory", async () => {
    const { client } = await connectInMemory(createHelloServer());
    expect((await client.readResource("hello://motd")).contents[0]).toMatchObject({ text: "Have a nice day." });
    const prompt = await client.getPrompt("introduce", { name: "Grace" });
    expect(prompt.messages[0]?.content).toMatchObject({ text: expect.stringContaining("Grace") });
  });
});
