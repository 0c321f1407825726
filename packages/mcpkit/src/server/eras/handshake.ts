import { ErrorCode, invalidParams, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { revisionRules } from "../../protocol/revisions.js";
import { TASKS_EXTENSION } from "../../protocol/tasks.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation } from "../../protocol/types/common.js";
import type { InitializeResult } from "../../protocol/types/lifecycle.js";
import { type LegacyRevision, negotiate, newestFirst, type Revision } from "../../protocol/versions.js";
import { encodeDescriptor } from "../dispatch/encode.js";
import type { Registry } from "../registry/registry.js";

/** What an `initialize` request settles: the revision and the client's declarations. */
export interface Handshake {
  revision: LegacyRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  result: InitializeResult;
}

/** basic/lifecycle §Initialization: checks an initialize request and negotiates the revision. */
export function handshake(server: Registry, params: JsonObject): Handshake {
  if (typeof params.protocolVersion !== "string") throw invalidParams('initialize needs a string "protocolVersion"');
  const caps = params.capabilities;
  if (caps !== undefined && (typeof caps !== "object" || caps === null || Array.isArray(caps)))
    throw invalidParams('initialize "capabilities" must be an object');
  const revision = negotiate(params.protocolVersion, server.revisions);
  if (revision === undefined) throw handshakeRefused(server.revisions, params.protocolVersion);
  const result: InitializeResult = {
    protocolVersion: revision,
    capabilities: legacyTasks(server.capabilities(), revision),
    serverInfo: serverInfoFor(server, revision),
  };
  if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
  return {
    revision,
    clientCapabilities: (caps as ClientCapabilities | undefined) ?? {},
    clientInfo: params.clientInfo as Implementation | undefined,
    result,
  };
}

/**
 * basic/versioning §Backward Compatibility: a server of modern revisions only names the
 * revisions it supports in its error to `initialize` (a legacy client has no way forward,
 * and this message may be all it can show). -32022 with `data.supported`, as a modern
 * request for a version it does not serve gets, so a dual-era client can retry in one.
 */
export function handshakeRefused(served: readonly Revision[], requested: string): McpError {
  const supported = newestFirst(served);
  const list = supported.join(", ");
  return new McpError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version ${requested}: this server supports only ${list}, which ${supported.length === 1 ? "has" : "have"} no initialize handshake (a client of ${list} sends server/discover or requests with _meta)`,
    { supported, requested },
  );
}

/**
 * 2025-11-25 declares tasks in its own slot (basic/utilities/tasks §Server Capabilities),
 * in place of the 2026-07-28 extension, which a client of that revision cannot use.
 */
function legacyTasks(caps: ServerCapabilities, revision: LegacyRevision): ServerCapabilities {
  if (revisionRules(revision).tasks !== "legacy" || !caps.extensions?.[TASKS_EXTENSION]) return caps;
  const { [TASKS_EXTENSION]: _extension, ...extensions } = caps.extensions;
  const { extensions: _all, ...rest } = caps;
  return {
    ...rest,
    ...(Object.keys(extensions).length > 0 && { extensions }),
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  };
}

function serverInfoFor(server: Registry, revision: LegacyRevision): Implementation {
  const rules = revisionRules(revision);
  const info = encodeDescriptor(server.info, rules);
  if (rules.icons) return info;
  // websiteUrl and description arrived with icons in 2025-11-25.
  const { websiteUrl: _url, description: _description, ...older } = info;
  return older;
}
