import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import type { GitHubApi } from "./api.js";
import { owner, READ, repo } from "./arguments.js";
import { reply } from "./format.js";

type Obj = Record<string, unknown>;

/** get_file_contents: a file's text, or a directory's entries, at a branch, tag or commit. */
export function registerContentsTool(server: McpServer, api: GitHubApi): void {
  server.tool(
    "get_file_contents",
    {
      title: "Read a repository's file or directory",
      description: "A file's contents (text files; others are described), or a directory's entries, from a repository.",
      input: z.object({
        owner,
        repo,
        path: z
          .string()
          .max(1000)
          .describe("The file or directory, such as src/index.ts (default: the top)")
          .optional(),
        ref: z.string().max(250).describe("A branch, tag or commit (default: the default branch)").optional(),
      }),
      annotations: READ,
    },
    async (args, ctx) => {
      const path = (args.path ?? "").replace(/^\/+|\/+$/g, "");
      const where = `${args.owner}/${args.repo}/${path}${args.ref ? `@${args.ref}` : ""}`;
      const answer = await api.call(ctx, where, (github, request) =>
        github.rest.repos.getContent({
          owner: args.owner,
          repo: args.repo,
          path,
          ...(args.ref && { ref: args.ref }),
          request,
        }),
      );
      const data = answer.data as unknown as Obj | Obj[];
      if (Array.isArray(data)) {
        const entries = data.map(
          (e) =>
            `[${e.type === "dir" ? "dir" : e.type === "file" ? "file" : String(e.type)}] ${String(e.name)}${e.type === "file" ? ` (${String(e.size)} bytes)` : ""}`,
        );
        return reply([`${where}: ${data.length} entries`, ...entries], answer);
      }
      if (data.type !== "file")
        return reply(
          [`${where} is a ${String(data.type)}${data.target ? ` pointing to ${String(data.target)}` : ""}.`],
          answer,
        );
      const head = `${where} (${String(data.size)} bytes, blob ${String(data.sha).slice(0, 7)}) ${String(data.html_url)}`;
      // GitHub leaves the content out of files over 1 MB (encoding "none").
      if (data.encoding !== "base64" || typeof data.content !== "string")
        return reply([head, `Too large to show here; download it from ${String(data.download_url)}`], answer);
      const bytes = Buffer.from(data.content, "base64");
      if (bytes.includes(0))
        return reply([head, `A binary file; download it from ${String(data.download_url)}`], answer);
      return reply([head, "", bytes.toString("utf8")], answer);
    },
  );
}
