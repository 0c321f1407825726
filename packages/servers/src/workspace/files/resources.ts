import type { Dirent, Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Resource } from "mcpkit";
import { ErrorCode, McpError } from "mcpkit/jsonrpc";
import type { Context, McpServer, ReadReturn } from "mcpkit/server";
import { asProtocolError, fsError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { Area } from "../roots/area.js";
import type { FileAccess } from "./access.js";
import { readDirectoryInside } from "./confined.js";
import { fileContents } from "./content.js";
import { guardPath } from "./guard.js";
import { mimeFromName } from "./mime.js";
import { readRegularFile } from "./open.js";
import { walkBreadthFirst } from "./walk.js";

/**
 * Files as resources (server/resources): `file:///{+path}` reads any file inside the
 * client's allowed directories, resources/list shows the first LIMITS.listedResources of
 * them, and subscriptions are fed by the watcher (watch.ts) under the same URIs.
 */
export function registerFileResources(server: McpServer, access: FileAccess): void {
  server.resourceTemplate(
    "file:///{+path}",
    {
      name: "file",
      title: "Files",
      description:
        "A file inside the allowed directories: text files as text, others as base64 blobs; a directory reads as its listing (inode/directory).",
      list: (ctx) => listFiles(access, ctx),
      complete: { path: (value, { ctx }) => completePath(access, ctx, value) },
    },
    async (uri, _variables, ctx) => {
      try {
        return await readFileResource(access, uri, ctx);
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );
}

/** The path a file:// URI names, decoded once by the URL parser, which also folds "." and "..". */
function pathOf(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.protocol !== "file:") throw new Error("not a file: URI");
    return fileURLToPath(url);
  } catch (error) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Refused: ${uri} is not a local file URI (${(error as Error).message})`,
      {
        uri,
      },
    );
  }
}

async function readFileResource(access: FileAccess, uri: string, ctx: Context): Promise<ReadReturn> {
  const path = pathOf(uri);
  // The decoded path goes through the same checks as a tool's path argument.
  const target = await guardPath(await access.scope.areas(ctx), path, { mayCreate: true });
  if (!target.exists) return []; // Nothing there: the library answers "Resource not found".
  let info: Stats;
  try {
    info = await stat(target.real);
  } catch (error) {
    throw fsError(error, path);
  }
  if (info.isDirectory()) {
    const entries = await readDirectoryInside([target.area], target.real, path).catch((error: unknown) => {
      throw fsError(error, path);
    });
    const names = entries.map((d) => (d.isDirectory() ? `${d.name}/` : d.name)).sort();
    return { uri, mimeType: "inode/directory", text: names.join("\n") };
  }
  const contents = fileContents(
    target.real,
    await readRegularFile([target.area], target.real, path, access.maxReadBytes),
  );
  return { ...contents, uri };
}

async function listFiles(access: FileAccess, ctx: Context): Promise<Resource[]> {
  let areas: Area[];
  try {
    areas = await access.scope.areas(ctx);
  } catch {
    // The client's roots cannot be asked for here (2026-07-28 allows it only in tools/call,
    // prompts/get and resources/read): list nothing rather than more than it allows.
    return [];
  }
  const resources: Resource[] = [];
  for (const area of areas) {
    let visited = 0;
    for await (const entry of walkBreadthFirst(area.real, ctx.signal, [area])) {
      if (++visited > LIMITS.walkEntries || resources.length >= LIMITS.listedResources) break;
      if (entry.kind !== "file") continue;
      const mimeType = mimeFromName(entry.path);
      resources.push({
        uri: pathToFileURL(entry.path).href,
        name: areas.length > 1 ? `${basename(area.path)}/${entry.rel}` : entry.rel,
        ...(mimeType && { mimeType }),
      });
    }
  }
  return resources;
}

/** Completes the path of file:///{+path}: allowed directories first, then names inside them. */
async function completePath(access: FileAccess, ctx: Context, value: string): Promise<string[]> {
  let areas: Area[];
  try {
    areas = await access.scope.areas(ctx);
  } catch {
    return [];
  }
  const typed = `/${value.replace(/^\/+/, "")}`;
  const out = areas.filter((a) => a.real.startsWith(typed) && a.real !== typed).map((a) => `${a.real.slice(1)}/`);
  const dir = typed.endsWith("/") ? typed : dirname(typed);
  const prefix = typed.endsWith("/") ? "" : basename(typed);
  let entries: Dirent[];
  try {
    // The typed directory is checked like any path: a link inside a root may not list outside.
    const target = await guardPath(areas, dir);
    entries = await readDirectoryInside([target.area], target.real, dir);
  } catch {
    return out;
  }
  for (const d of entries) {
    if (!d.name.startsWith(prefix)) continue;
    out.push(`${join(dir, d.name).slice(1)}${d.isDirectory() ? "/" : ""}`);
  }
  return out.sort().slice(0, 100);
}
