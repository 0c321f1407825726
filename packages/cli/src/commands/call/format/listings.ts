import type { Prompt, Resource, ResourceTemplate, Tool, ToolAnnotations } from "mcpkit";
import type { ServerDescription } from "mcpkit/client";
import type { Colors } from "../output.js";
import { signature } from "./schema.js";

/** Listings for people: a name line, then the description indented under it. */

const described = (head: string, description: string | undefined, c: Colors) =>
  description
    ? [
        head,
        ...description
          .trim()
          .split("\n")
          .map((line) => `  ${c.dim(line)}`),
      ]
    : [head];

const HINTS: [keyof ToolAnnotations, boolean, string][] = [
  ["readOnlyHint", true, "read-only"],
  ["destructiveHint", true, "destructive"],
  ["idempotentHint", true, "idempotent"],
  ["openWorldHint", false, "closed-world"],
];

function hints(annotations: ToolAnnotations | undefined): string {
  const tags = HINTS.filter(([key, when]) => annotations?.[key] === when).map(([, , tag]) => tag);
  return tags.length > 0 ? ` [${tags.join(", ")}]` : "";
}

export function toolLines(tools: Tool[], c: Colors): string[] {
  return tools.flatMap((tool) => {
    const title = tool.title ?? tool.annotations?.title;
    const about = [title && title !== tool.name ? title : undefined, tool.description].filter(Boolean).join(": ");
    const head = `${c.bold(tool.name)}(${signature(tool.inputSchema ?? {})})${c.dim(hints(tool.annotations))}`;
    return described(head, about || undefined, c);
  });
}

export function resourceListLines(resources: (Resource | ResourceTemplate)[], c: Colors): string[] {
  return resources.flatMap((resource) => {
    const uri = "uri" in resource ? resource.uri : resource.uriTemplate;
    const about = [resource.title ?? resource.name, resource.mimeType].filter(Boolean).join(", ");
    return described(`${c.bold(uri)}  ${c.dim(about)}`, resource.description, c);
  });
}

export function promptLines(prompts: Prompt[], c: Colors): string[] {
  return prompts.flatMap((prompt) => {
    const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ");
    const about = [prompt.title && prompt.title !== prompt.name ? prompt.title : undefined, prompt.description]
      .filter(Boolean)
      .join(": ");
    return described(`${c.bold(prompt.name)}(${args})`, about || undefined, c);
  });
}

export function infoLines(server: ServerDescription, c: Colors): string[] {
  const { serverInfo: info } = server;
  const name = info.name ? `${c.bold(info.name)} ${info.version}` : c.dim("(the server did not name itself)");
  const lines = [
    `${name}${info.title && info.title !== info.name ? ` ${c.dim(`(${info.title})`)}` : ""}`,
    `protocol ${server.protocolVersion} ${c.dim(server.era === "modern" ? "(stateless)" : "(initialize handshake)")}`,
  ];
  if (info.description) lines.push(info.description);
  const capabilities = Object.entries(server.capabilities ?? {}).map(([key, value]) => {
    const flags = Object.entries((value ?? {}) as Record<string, unknown>)
      .filter(([, on]) => on === true || (typeof on === "object" && on !== null))
      .map(([flag]) => flag);
    return flags.length > 0 ? `${key} (${flags.join(", ")})` : key;
  });
  lines.push(`capabilities: ${capabilities.join(", ") || "none"}`);
  if (server.instructions) lines.push("", ...server.instructions.trim().split("\n"));
  return lines;
}
