import type { McpServer } from "mcpkit/server";
import { RED_PIXEL_PNG } from "./media.js";

const TEMPLATE_IDS = Array.from({ length: 150 }, (_, i) => String(i + 1));

export function registerResources(server: McpServer, state: { watched: string }): void {
  server.resource(
    "test://static-text",
    {
      name: "static-text",
      title: "Static text",
      description: "A static text resource",
      mimeType: "text/plain",
      annotations: { audience: ["user", "assistant"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" },
    },
    () => "This is the content of the static text resource.",
  );

  server.resource(
    "test://static-binary",
    { name: "static-binary", description: "A static binary resource (PNG)", mimeType: "image/png", size: 69 },
    (uri) => ({ uri, mimeType: "image/png", blob: RED_PIXEL_PNG }),
  );

  server.resource(
    "test://watched-resource",
    { name: "watched-resource", description: "A resource that changes; subscribe to it", mimeType: "text/plain" },
    () => state.watched,
  );

  server.resourceTemplate(
    "test://template/{id}/data",
    {
      name: "template-data",
      description: "Data for an id",
      mimeType: "application/json",
      complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
    },
    (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  );
}
