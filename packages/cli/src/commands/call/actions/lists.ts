import { EXIT } from "../exit-codes.js";
import { promptLines, resourceListLines, toolLines } from "../format/listings.js";
import { type Action, interruptible, noArguments, type Session } from "./session.js";

/**
 * The listings: every page, following cursors. A server without the capability has an
 * empty list rather than an error: nothing to list is an answer.
 */
function listing<T>(
  action: string,
  capability: "tools" | "resources" | "prompts",
  key: string,
  fetch: (session: Session) => Promise<T[]>,
  lines: (items: T[], session: Session) => string[],
): Action {
  return (args) => {
    noArguments(action, args);
    return async (session) => {
      const offered = session.server.capabilities?.[capability] !== undefined;
      const items = offered ? await interruptible(fetch(session), session.signal) : [];
      if (session.out.json) session.out.data({ [key]: items });
      else if (items.length === 0)
        session.out.note(session.out.ce.dim(offered ? `(no ${action})` : `(this server does not offer ${capability})`));
      else for (const line of lines(items, session)) session.out.line(line);
      return EXIT.ok;
    };
  };
}

export const listTools = listing(
  "tools",
  "tools",
  "tools",
  ({ client }) => client.tools(),
  (tools, { out }) => toolLines(tools, out.c),
);

export const listResources = listing(
  "resources",
  "resources",
  "resources",
  ({ client }) => client.resources(),
  (resources, { out }) => resourceListLines(resources, out.c),
);

export const listTemplates = listing(
  "templates",
  "resources",
  "resourceTemplates",
  ({ client }) => client.resourceTemplates(),
  (templates, { out }) => resourceListLines(templates, out.c),
);

export const listPrompts = listing(
  "prompts",
  "prompts",
  "prompts",
  ({ client }) => client.prompts(),
  (prompts, { out }) => promptLines(prompts, out.c),
);
