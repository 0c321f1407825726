import { recordingDownload, testFileDownload } from "../downloads.js";
import { empty } from "./check.js";
import type { OperationTable } from "./context.js";

/** What the page downloads: the history as a test file, the last connection as a recording (../downloads.ts). */
export const exportOps: OperationTable<"export/test-file" | "export/recording"> = {
  "export/test-file": { parse: empty, run: (_request, ctx) => testFileDownload(ctx.session, ctx.serverName) },
  "export/recording": { parse: empty, run: (_request, ctx) => recordingDownload(ctx.session) },
};
