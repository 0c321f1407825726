import type { ClientCapabilities, ServerCapabilities } from "./capabilities.js";
import type { Implementation, Meta } from "./common.js";

/** basic/lifecycle §Initialization */

export interface InitializeParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: Meta;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  _meta?: Meta;
}
