import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../interop/helpers.js";
import { type Cluster, recordingCallNodes, startCluster } from "./cluster.js";

// `mcpkit serve weather --redis`: two nodes behind nginx round-robin. Its only state is each
// node's cache of the provider's answers, so any node answers any request of a session,
// and (with the offline provider) each answers alike.

let cluster: Cluster;
let client: Client;

beforeAll(async () => {
  assertBuilt();
  cluster = await startCluster(2, { server: "weather" });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await cluster?.stop();
});

describe("serve weather as a 2-node cluster behind nginx", () => {
  it("serves one session from both nodes, alike", async () => {
    const upstreams: string[] = [];
    client = new Client({ name: "cluster-weather", version: "1", protocolVersion: "2025-11-25" });
    await client.connect(streamableHttpClientTransport(cluster.url, { fetch: recordingCallNodes(upstreams) }));
    const answers = new Set<string>();
    for (let n = 0; n < 4; n++) {
      const result = await client.callTool("get_current_weather", { city: "Paris" });
      expect(result.isError).toBeFalsy();
      answers.add(JSON.stringify(result.content));
    }
    expect(new Set(upstreams).size, `calls landed on ${upstreams.join(", ")}`).toBe(2);
    expect(answers.size).toBe(1);
    const cities = await client.readResource("weather://cities");
    expect(JSON.stringify(cities.contents)).toContain("Paris");
  }, 30_000);
});
