import type { RootScope } from "../roots/client-roots.js";

/** What the file tools and resources share: who may see what, and how much at once. */
export interface FileAccess {
  scope: RootScope;
  maxReadBytes: number;
}
