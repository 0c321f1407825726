import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { createSseHandler, createStreamableHttpHandler } from "../../src/endpoints/http/index.js";
import { contractServer, runContract, transportContract } from "../../src/testing/index.js";
import { listen } from "../../src/transports/http/node.js";
import { createLinkedPair } from "../../src/transports/memory/linked-pair.js";
import { sseClientTransport } from "../../src/transports/sse-legacy/sse-client-transport.js";
import { stdioClientTransport } from "../../src/transports/stdio/index.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";

const STDIO_SERVER = fileURLToPath(new URL("./fixtures/contract-stdio-server.mjs", import.meta.url));

describe("transport contract: in-memory pair", () => {
  runContract(
    transportContract(async () => {
      const server = contractServer();
      const pair = async () => {
        const [client, serverSide] = createLinkedPair();
        await server.connect(serverSide);
        return client;
      };
      const transport = await pair();
      const second = await pair();
      return { transport, another: () => second };
    }),
    it,
  );
});

describe("transport contract: stdio (a real child process)", () => {
  runContract(
    transportContract(async () => ({
      transport: stdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] }),
    })),
    it,
  );
});

/** A Streamable HTTP endpoint on 127.0.0.1 serving the contract server. */
async function httpEndpoint() {
  const server = contractServer();
  const listening = await listen(createStreamableHttpHandler(server), { host: "127.0.0.1", port: 0 });
  return {
    transport: streamableHttpClientTransport(new URL("/", listening.url)),
    another: () => streamableHttpClientTransport(new URL("/", listening.url)),
    close: () => listening.close(),
  };
}

describe("transport contract: Streamable HTTP, modern era", () => {
  runContract(transportContract(httpEndpoint), it);
});

describe("transport contract: Streamable HTTP, legacy era (sessions)", () => {
  runContract(transportContract(httpEndpoint, { protocolVersion: "2025-11-25" }), it);
});

describe("transport contract: HTTP+SSE (2024-11-05)", () => {
  runContract(
    transportContract(
      async () => {
        const listening = await listen(createSseHandler(contractServer()), { host: "127.0.0.1", port: 0 });
        return {
          transport: sseClientTransport(new URL("/sse", listening.url)),
          another: () => sseClientTransport(new URL("/sse", listening.url)),
          close: () => listening.close(),
        };
      },
      { protocolVersion: "2024-11-05" },
    ),
    it,
  );
});
