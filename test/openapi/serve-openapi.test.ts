import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, mcpkitOverStdio, serveHttp, textOf } from "../serve/helpers.js";
import { MCPKIT_BIN, SERVER_NODE } from "../workspace/helpers.js";
import { type RunningApi, startPetstore } from "./apis.js";

// `mcpkit serve openapi <document> --base-url URL` as users run it (the built CLI, a real
// process), calling the Fastify Petstore on 127.0.0.1.

const PETSTORE = fileURLToPath(new URL("./fixtures/petstore.yaml", import.meta.url));
let api: RunningApi;
beforeAll(async () => {
  api = await startPetstore();
});
afterEach(closeServed);
afterAll(() => api.close());

it("serves the Petstore over stdio: the key comes from the environment, headers from --header", async () => {
  const client = await mcpkitOverStdio(
    "openapi",
    [PETSTORE, "--base-url", `${api.url}/api/v3`, "--api-key-env", "PET_KEY", "--header", "X-Client: cli-test"],
    { env: { PET_KEY: "special-key" } },
  );
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(16);
  const result = await client.callTool("getInventory", {});
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(api.received.at(-1)?.headers).toMatchObject({ api_key: "special-key", "x-client": "cli-test" });
});

it("serves over HTTP, with --read-only and --tool-catalog 0 (search_tools and call_tool listed)", async () => {
  const served = await serveHttp("openapi", [
    PETSTORE,
    "--base-url",
    `${api.url}/api/v3`,
    "--read-only",
    "--tool-catalog",
    "0",
  ]);
  expect(served.stderr()).toMatch(/7 operations of Swagger Petstore 1\.0\.17/);
  const client = await mcpkitOverHttp(served.url);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
  const found = await client.callTool("search_tools", { query: "find a pet by its id", limit: 1 });
  expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe("getPetById");
  const pet = await client.callTool("call_tool", { name: "getPetById", arguments: { petId: 1 } });
  expect(pet.structuredContent).toMatchObject({ name: "Rex" });
  const write = await client.callTool("call_tool", { name: "addPet", arguments: {} });
  expect(write.isError).toBe(true); // --read-only: not served
});

it("says what is missing: the document, --base-url, an unset variable", () => {
  const run = (...args: string[]) =>
    spawnSync(SERVER_NODE, [MCPKIT_BIN, "serve", "openapi", ...args, "--stdio"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });
  expect(run().stderr).toMatch(/needs the document/);
  expect(run(PETSTORE).stderr).toMatch(/needs --base-url/);
  expect(run(PETSTORE, "--base-url", api.url, "--bearer-env", "NOPE_TOKEN").stderr).toMatch(
    /NOPE_TOKEN: that environment variable is not set/,
  );
});
