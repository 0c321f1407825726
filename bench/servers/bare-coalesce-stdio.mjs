// The bare stdio server writing the answers of one event-loop turn together: the limit a
// pipe gives, which mcpkit's stdio figures are judged against.
import { serveBareStdio } from "./lib/bare-stdio.mjs";

serveBareStdio({ coalesce: true });
