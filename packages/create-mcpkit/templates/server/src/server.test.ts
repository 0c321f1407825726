import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { connectInMemory, formatReport, lint, runTests } from "mcpkit/testing";
import createAppServer from "./server.js";

// The definition under test, with a real client connected in memory.

test("greet says hello by name", async () => {
  const { client, close } = await connectInMemory(createAppServer());
  try {
    const result = await client.callTool("greet", { name: "Ada" });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
  } finally {
    await close();
  }
});

test("greet refuses an empty name, saying why", async () => {
  const { client, close } = await connectInMemory(createAppServer());
  try {
    const result = await client.callTool("greet", { name: "" });
    assert.equal(result.isError, true);
  } finally {
    await close();
  }
});

test("the server lists its tool, its resource and its prompt", async () => {
  const { client, close } = await connectInMemory(createAppServer());
  try {
    assert.deepEqual(
      (await client.tools()).map((tool) => tool.name),
      ["greet"],
    );
    assert.deepEqual(
      (await client.resources()).map((resource) => resource.uri),
      ["about://{{slug}}"],
    );
    const prompt = await client.getPrompt("welcome", { name: "Grace" });
    assert.match(JSON.stringify(prompt.messages), /Grace/);
  } finally {
    await close();
  }
});

test("lint finds nothing in the server that would break a client", async () => {
  const problems = await lint(createAppServer());
  assert.deepEqual(
    problems.filter((problem) => problem.severity === "error"),
    [],
  );
});

test("the requests in server.mcptest.yaml get the answers it expects", async () => {
  const file = fileURLToPath(new URL("../src/server.mcptest.yaml", import.meta.url));
  const report = await runTests(file, { server: createAppServer() });
  assert.equal(report.failed, 0, formatReport(report, "text"));
});
