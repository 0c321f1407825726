import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../github/fake-github.js";
import { closeServed, serveHttp } from "../serve/helpers.js";
import { blocks, CLI, ROOT, words } from "./readme-blocks.js";

// The README's `mcpkit call` examples for the seeds' servers, run as written: the server
// the block starts (on a free port; the GitHub one pointed at a loopback GitHub), then
// every `npx mcpkit call` line of the block against it.

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 180_000 });

const run = promisify(execFile);
let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
  github.addToken("ghp_readme", { write: false });
});
afterEach(closeServed);
afterAll(() => github.close());

/** The block under `heading`: the `serve` line, and each call line with its URL. */
function commands(heading: string) {
  const lines = (blocks(heading, "sh")[0] ?? "").split("\n").filter(Boolean);
  const calls = lines.filter((l) => l.startsWith("npx mcpkit call "));
  const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(calls[0] ?? "")?.[0] ?? "";
  return { serve: lines.find((l) => l.includes("mcpkit serve")), calls, url };
}

/** Runs the call lines against `served`, each as its own `mcpkit call` process. */
async function runAll(calls: string[], written: string, served: URL): Promise<string[]> {
  const outputs: string[] = [];
  for (const line of calls) {
    const args = words(line.replace(written, served.href)).slice(2); // drop "npx mcpkit"
    const { stdout } = await run(process.execPath, [CLI, ...args], { timeout: 45_000 });
    outputs.push(stdout);
  }
  return outputs;
}

describe("the README's examples of the seeds' servers", () => {
  it("weather", async () => {
    const { serve, calls, url } = commands("### Weather");
    expect(serve).toBe("npx mcpkit serve weather --port 3001 &");
    expect(calls).toHaveLength(5);
    const [cities, now, forecast, prompt, complete] = await runAll(calls, url, (await serveHttp("weather", [])).url);
    expect(JSON.parse(cities as string)[0]).toMatchObject({ name: "Beijing", aliases: ["北京", "Peking"] });
    expect(now).toContain("Beijing, China: current weather\nTemperature: 22°C");
    expect(forecast).toMatch(/Day 3 \(.*\): Slight rain, 60\.8–68°F/);
    expect(prompt).toContain("Please analyze the weather in 廣州");
    expect(complete?.trim().split("\n")).toEqual(["Shanghai", "Shenzhen"]);
  });

  it("GitHub", async () => {
    const { serve, calls, url } = commands("### GitHub");
    expect(serve).toBe("GITHUB_TOKEN=github_pat_… npx mcpkit serve github --port 3002 &");
    const served = await serveHttp("github", ["--api-url", github.url], { GITHUB_TOKEN: "ghp_readme" });
    const [search, issues, file] = await runAll(calls, url, served.url);
    expect(search).toMatch(/^1 repositories match "hello"\noctocat\/Hello-World ★80/);
    expect(issues).toContain("[page 1 of 12, 5 items (up to 5 per page); for more, call again with page: 2]");
    expect(file).toContain("Hello World!");
    expect(github.requests.at(-1)?.authorization).toBe("token ghp_readme");
  });

  it("the workspace's seed prompts, sampling and elicitation", async () => {
    const { calls, url } = commands("### The workspace's seed prompts");
    expect(url).toBe("http://127.0.0.1:3000/mcp");
    const served = await serveHttp("workspace", ["--root", ROOT]);
    const [review, explain, commit, search] = await runAll(calls, url, served.url);
    expect(review).toMatch(
      /Please review the Markdown code in .*README\.md \(below\)\. Focus on readability above all\./,
    );
    expect(explain).toContain("Explain how this JavaScript code works:");
    expect(commit).toContain("Follow Conventional Commits 1.0.0");
    expect(search).toContain(
      '[ranked by keyword overlap with "how to run the tests": the client offers no sampling, so no model ranked them]',
    );
  });
});
