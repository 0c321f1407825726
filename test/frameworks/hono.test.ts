import { getRequestListener } from "@hono/node-server";
import { honoApp } from "../../examples/frameworks/hono.mjs";
import { frameworkSuite, programSuite } from "./suite.js";

frameworkSuite({ name: "Hono", listener: (mcp, auth) => getRequestListener(honoApp(mcp, { auth }).fetch) });

programSuite("hono");
