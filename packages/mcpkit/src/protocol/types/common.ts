/** Shapes shared by every MCP feature (basic/index §General fields). */

export type Meta = Record<string, unknown>;

export type ProgressToken = string | number;

export type Cursor = string;

export type Role = "user" | "assistant";

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Describes an MCP implementation (`serverInfo` / `clientInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface PaginatedParams {
  cursor?: Cursor;
  _meta?: Meta;
}

export interface PaginatedResult {
  nextCursor?: Cursor;
  _meta?: Meta;
}

export type EmptyResult = { _meta?: Meta };

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** RFC 5424 severities, least severe first. */
export type LogLevel = (typeof LOG_LEVELS)[number];
