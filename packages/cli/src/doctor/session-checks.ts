import { ErrorCode, LATEST_LEGACY_REVISION, McpError } from "mcpkit";
import type { Client, ServerDescription } from "mcpkit/client";
import { type RawLists, readLists } from "mcpkit/testing";
import { type CheckInfo, type CheckResult, type Checks, failed, passed } from "./check.js";
import { printable } from "./printable.js";
import { formatMs, StepTimeout, within } from "./within.js";

export const handshake: CheckInfo = {
  id: "handshake",
  severity: "error",
  summary:
    "The server answers the client's first request (server/discover, else initialize) within the step's timeout; the time to that first answer is shown.",
  fix: "Answer initialize at once and do slow work (loading data, connecting to services) after it, or raise --timeout if the server is slow by nature.",
};

export const revision: CheckInfo = {
  id: "revision",
  severity: "error",
  summary:
    "Server and client share a protocol revision: 2026-07-28 through server/discover, or one of 2024-11-05 … 2025-11-25 through initialize.",
  fix: "Answer initialize with a revision the client asked for or one it knows (2025-11-25 is the newest handshake revision); serve 2026-07-28 through server/discover.",
};

export const legacyClients: CheckInfo = {
  id: "legacy-clients",
  severity: "warning",
  summary:
    "A server that speaks 2026-07-28 also answers initialize, so clients of 2025-11-25 and earlier (most hosts today) connect too.",
  fix: "Serve the initialize handshake as well (an mcpkit server serves every revision from one definition unless its `revisions` option leaves them out).",
};

const list = (id: string, noun: string, method: string): CheckInfo => ({
  id,
  severity: "error",
  summary: `When the server's capabilities offer ${noun}, ${method} answers, page by page.`,
  fix: `Answer ${method} (or stop declaring the capability); mcpkit lint shows what is wrong in the list itself.`,
});

export const toolsList = list("tools", "tools", "tools/list");
export const promptsList = list("prompts", "prompts", "prompts/list");
export const resourcesList = list("resources", "resources", "resources/list");
export const templatesList = list("resource-templates", "resources", "resources/templates/list");

/** Whether a failed connect means no shared revision (the server answered, but not with one this client speaks). */
function isRevisionFailure(error: unknown): boolean {
  if (error instanceof McpError && error.code === ErrorCode.UnsupportedProtocolVersion) return true;
  return error instanceof Error && /protocol (revision|version)/i.test(error.message);
}

/** The checks a connection that failed adds: no answer in time, no shared revision, or the server's refusal. */
export function connectFailure(error: unknown, elapsedMs: number): CheckResult[] {
  if (error instanceof StepTimeout)
    return [
      failed(
        handshake,
        `No answer to server/discover or initialize within ${formatMs(error.ms)}: clients give up on a server this slow to start`,
      ),
    ];
  const message = printable(error instanceof Error ? error.message : String(error));
  if (isRevisionFailure(error))
    return [passed(handshake, `The server answered in ${elapsedMs} ms`), failed(revision, message)];
  return [
    failed(
      handshake,
      `The handshake failed: ${message}`,
      "Answer initialize (basic/lifecycle), or server/discover for 2026-07-28, with a result: the message above is what the client got instead; a stdio server's stderr may say more.",
    ),
  ];
}

/** The first answer and the revision of a connection that succeeded. */
export function connected(description: ServerDescription, elapsedMs: number): CheckResult[] {
  const name = description.serverInfo
    ? ` (${printable(description.serverInfo.name)} ${printable(description.serverInfo.version)})`
    : "";
  return [
    passed(
      handshake,
      `The server${name} answered ${description.era === "modern" ? "server/discover" : "initialize"} in ${elapsedMs} ms`,
    ),
    passed(
      revision,
      description.era === "modern"
        ? `${description.protocolVersion} (modern era: server/discover, no session)`
        : `${description.protocolVersion} (legacy era: the initialize handshake)`,
    ),
  ];
}

/**
 * basic/versioning §Backward Compatibility: a modern-only server fails every legacy
 * client. Connects again, asking for the newest handshake revision.
 */
export async function legacyClientsCheck(
  connect: (client: Client) => Promise<ServerDescription>,
  client: Client,
  timeoutMs: number,
): Promise<CheckResult> {
  try {
    const description = await within(connect(client), timeoutMs);
    return passed(
      legacyClients,
      `Clients of 2025-11-25 and earlier connect too (initialize answered with ${description.protocolVersion})`,
    );
  } catch (error) {
    return failed(
      legacyClients,
      `The server refuses initialize (${printable((error as Error).message)}): clients of ${LATEST_LEGACY_REVISION} and earlier cannot connect`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}

const names = (items: unknown[], key: string) => {
  const shown = items
    .slice(0, 8)
    .map((item) => printable(String((item as Record<string, unknown> | null)?.[key] ?? "?")));
  return `${shown.join(", ")}${items.length > shown.length ? ", …" : ""}`;
};

/** Lists each primitive the server offers, as a client would after connecting. */
export async function listChecks(client: Client, checks: Checks): Promise<RawLists> {
  const lists = await readLists(client);
  const offered = client.serverCapabilities ?? {};
  const each: [CheckInfo, string, string, unknown[] | undefined, boolean, string][] = [
    [toolsList, "tools/list", "tools", lists.tools, offered.tools !== undefined, "name"],
    [promptsList, "prompts/list", "prompts", lists.prompts, offered.prompts !== undefined, "name"],
    [resourcesList, "resources/list", "resources", lists.resources, offered.resources !== undefined, "uri"],
    [
      templatesList,
      "resources/templates/list",
      "resource templates",
      lists.resourceTemplates,
      offered.resources !== undefined,
      "uriTemplate",
    ],
  ];
  for (const [check, method, noun, items, isOffered, key] of each) {
    const failure = lists.failures.find((f) => f.list === method);
    if (!isOffered) checks.add(passed(check, `No ${noun}: the server's capabilities do not offer them`));
    else if (failure) checks.add(failed(check, `${method} failed: ${printable(failure.message)}`));
    else
      checks.add(
        passed(
          check,
          items?.length
            ? `${items.length} ${items.length === 1 ? noun.replace(/s$/, "") : noun}: ${names(items, key)}`
            : `${method} answers, with no ${noun}`,
        ),
      );
  }
  return lists;
}
