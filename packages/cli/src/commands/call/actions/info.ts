import { EXIT } from "../exit-codes.js";
import { infoLines } from "../format/listings.js";
import { type Action, noArguments } from "./session.js";

/** What connecting learned: the server's name, revision, capabilities and instructions. */
export const info: Action = (args) => {
  noArguments("info", args);
  return async ({ server, out }) => {
    if (out.json) out.data(server);
    else for (const line of infoLines(server, out.c)) out.line(line);
    return EXIT.ok;
  };
};
