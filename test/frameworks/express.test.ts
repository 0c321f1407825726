import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { protectedResource } from "mcpkit/auth";
import { createStreamableHttpHandler, toNodeListener } from "mcpkit/http";
import { afterEach, describe, expect, it } from "vitest";
import { expressApp } from "../../examples/frameworks/express.mjs";
import { createPortableServer } from "../../examples/runtimes/server.mjs";
import { ACCEPT_BOTH, initializeBody } from "../../packages/mcpkit/test/http-server/helpers.js";
import { frameworkSuite, programSuite } from "./suite.js";

// The Node adapter reads the body from the socket; behind express.json() the socket is
// already drained, and the adapter takes the parsed req.body instead.
describe.each([true, false])("Express, express.json() in front: %s", (json) => {
  frameworkSuite({ name: "Express", listener: (mcp, auth) => expressApp(mcp, { auth, json }) });
});

programSuite("express");

describe("Express, beyond the example", () => {
  const served: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of served.splice(0)) await s.close();
  });

  /** An Express app on 127.0.0.1; `build` gets the endpoint's URL first (for OAuth). */
  async function serveApp(build: (url: string) => express.Express) {
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    http.on("request", build(url));
    served.push({
      close: async () => {
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      },
    });
    return url;
  }

  it("answers at once, saying why, when a body parser read the body and kept nothing", async () => {
    const mcp = createStreamableHttpHandler(createPortableServer());
    served.push({ close: () => mcp.close() });
    const url = await serveApp(() => {
      const app = express();
      app.use((req, _res, next) => {
        req.resume(); // reads the body and throws it away
        req.once("end", () => next());
      });
      app.all("/mcp", toNodeListener(mcp));
      return app;
    });
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
      body: JSON.stringify(initializeBody()),
    });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "The request body was read before the MCP endpoint saw it",
    );
  });

  it("routes under a mount point by the path the client sent (originalUrl)", async () => {
    const server = createPortableServer();
    let mcp: ReturnType<typeof createStreamableHttpHandler> | undefined;
    const url = await serveApp((resource) => {
      const auth = protectedResource({
        resource,
        authorizationServers: ["https://auth.example.com"],
        verifier: () => Promise.reject(new Error("no tokens in this test")),
      });
      mcp = createStreamableHttpHandler(server, { auth });
      const wellKnown = express.Router();
      wellKnown.get("/oauth-protected-resource/mcp", toNodeListener(mcp));
      const app = express();
      app.use("/.well-known", wellKnown); // Express strips /.well-known from req.url in there
      app.all("/mcp", toNodeListener(mcp));
      return app;
    });
    served.push({ close: () => (mcp as NonNullable<typeof mcp>).close() });
    const metadata = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: url });
  });
});
