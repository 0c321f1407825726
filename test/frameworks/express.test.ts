import { describe } from "vitest";
import { expressApp } from "../../examples/frameworks/express.mjs";
import { frameworkSuite, programSuite } from "./suite.js";

// The Node adapter reads the body from the socket; behind express.json() the socket is
// already drained, and the adapter takes the parsed req.body instead.
describe.each([true, false])("Express, express.json() in front: %s", (json) => {
  frameworkSuite({ name: "Express", listener: (mcp, auth) => expressApp(mcp, { auth, json }) });
});

programSuite("express");
