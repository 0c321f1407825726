// The bare no-framework MCP stdio server, one write per answer: the baseline every
// implementation is measured against.
import { serveBareStdio } from "./lib/bare-stdio.mjs";

serveBareStdio({ coalesce: false });
