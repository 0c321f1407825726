import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../github/fake-github.js";
import { assertBuilt } from "../interop/helpers.js";
import { type Cluster, recordingCallNodes, startCluster } from "./cluster.js";

// `mcpkit serve github --redis`: two nodes behind nginx round-robin, acting with the token
// every node is given (GITHUB_TOKEN), against a loopback stand-in for GitHub. Nothing of a
// session's is kept on one node: reads and writes are served by either. (The server's own
// sign-in, which one node would hold, is refused with --redis: test/cli/usage.test.ts.)

let github: FakeGitHub;
let cluster: Cluster;
let client: Client;

beforeAll(async () => {
  assertBuilt();
  github = await startFakeGitHub();
  github.addToken("ghp_cluster", { write: true });
  cluster = await startCluster(2, {
    server: "github",
    args: ["--api-url", github.url, "--allow-write"],
    env: { GITHUB_TOKEN: "ghp_cluster" },
  });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await cluster?.stop();
  await github?.close();
});

describe("serve github as a 2-node cluster behind nginx", () => {
  it("serves one session's reads and writes from both nodes, with the token every node has", async () => {
    const upstreams: string[] = [];
    client = new Client({ name: "cluster-github", version: "1", protocolVersion: "2025-11-25" });
    await client.connect(streamableHttpClientTransport(cluster.url, { fetch: recordingCallNodes(upstreams) }));
    for (let n = 0; n < 2; n++) {
      const listed = await client.callTool("list_issues", { owner: "octocat", repo: "Hello-World" });
      expect(listed.isError).toBeFalsy();
      const created = await client.callTool("create_issue", { owner: "octocat", repo: "Hello-World", title: `n${n}` });
      expect(created.isError).toBeFalsy();
    }
    expect(new Set(upstreams).size, `calls landed on ${upstreams.join(", ")}`).toBe(2);
    const posts = github.requests.filter((r) => r.method === "POST" && r.url.endsWith("/issues"));
    expect(posts.map((r) => r.authorization)).toEqual(["token ghp_cluster", "token ghp_cluster"]);
  }, 30_000);
});
