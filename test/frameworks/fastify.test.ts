import { fastifyApp } from "../../examples/frameworks/fastify.mjs";
import { frameworkSuite, programSuite } from "./suite.js";

frameworkSuite({
  name: "Fastify",
  async listener(mcp, auth) {
    const app = fastifyApp(mcp, { auth });
    await app.ready();
    return app.routing; // Fastify's request listener, here on a server the test listens with
  },
});

programSuite("fastify");
