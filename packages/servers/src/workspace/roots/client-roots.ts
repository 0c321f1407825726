import { realpath } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Root } from "mcpkit";
import { McpError } from "mcpkit/jsonrpc";
import type { Context, ServerSession } from "mcpkit/server";
import { WorkspaceError } from "../errors.js";
import { type Area, withoutNested } from "./area.js";
import { isInside } from "./inside.js";

/**
 * Which directories one request may touch: the configured roots, narrowed to the client's
 * roots when the client declared the roots capability (client/roots). This is per client,
 * never global: two clients on one HTTP server each see their own intersection.
 */
export interface RootScope {
  /** The areas for this request; fails (closed) when the client's roots cannot be learned. */
  areas(ctx: Context): Promise<Area[]>;
  /** The configured roots, before any client narrows them. */
  readonly configured: readonly Area[];
  /** A session finished its handshake: its roots may be cached until it says they changed. */
  sessionStarted(session: ServerSession): void;
  /** notifications/roots/list_changed from a session. */
  rootsChanged(session: ServerSession): void;
}

export function createRootScope(configured: readonly Area[], options: { cacheRoots?: boolean } = {}): RootScope {
  const cacheRoots = options.cacheRoots ?? true;
  // Per session; a 2026-07-28 request has none, so its roots are asked for every time.
  const sessions = new WeakMap<ServerSession, { roots?: Promise<Area[]> }>();

  const fetchAreas = async (ctx: Context): Promise<Area[]> => {
    let roots: Root[];
    try {
      roots = await ctx.listRoots();
    } catch (error) {
      // A protocol error (a malformed answer in a multi round-trip request) stays one.
      if (error instanceof McpError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new WorkspaceError(
        `Could not learn the client's roots (${why}); the client declared the roots capability, so files are only served inside its roots`,
      );
    }
    return intersect(configured, await clientAreas(roots));
  };

  return {
    configured,
    async areas(ctx) {
      const caps = ctx.client.capabilities;
      if (!caps.roots) return [...configured];
      const session = ctx.session && sessions.get(ctx.session);
      // Without listChanged the client never says when its roots change: ask every time.
      // So too where they are not kept (a cluster: the node told of a change may be another).
      if (!cacheRoots || !session || caps.roots.listChanged !== true) return fetchAreas(ctx);
      if (!session.roots) {
        const pending = fetchAreas(ctx);
        session.roots = pending;
        pending.catch(() => {
          if (session.roots === pending) session.roots = undefined;
        });
      }
      return session.roots;
    },
    sessionStarted(session) {
      sessions.set(session, {});
    },
    rootsChanged(session) {
      const entry = sessions.get(session);
      if (entry) entry.roots = undefined;
    },
  };
}

/** The client's file:// roots as areas; other schemes, bad URIs and missing directories are skipped. */
async function clientAreas(roots: readonly Root[]): Promise<Area[]> {
  const areas: Area[] = [];
  for (const root of roots) {
    if (typeof root?.uri !== "string" || !root.uri.startsWith("file:")) continue;
    try {
      const path = fileURLToPath(root.uri);
      areas.push({ path, real: await realpath(path) });
    } catch {
      // A root that is not a local path, or does not exist, grants nothing.
    }
  }
  return areas;
}

/** Where a configured root and a client root overlap: the deeper of the two. */
export function intersect(configured: readonly Area[], client: readonly Area[]): Area[] {
  const out: Area[] = [];
  for (const mine of configured) {
    for (const theirs of client) {
      if (isInside(mine.real, theirs.real)) out.push(theirs);
      else if (isInside(theirs.real, mine.real)) out.push(mine);
    }
  }
  return withoutNested(out);
}
