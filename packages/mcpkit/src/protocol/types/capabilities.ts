/** basic/lifecycle §Capability Negotiation. Open objects: peers may add their own keys. */

type Flag = Record<string, unknown>;

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: { context?: Flag; tools?: Flag };
  elicitation?: { form?: Flag; url?: Flag };
  experimental?: Record<string, Flag>;
  extensions?: Record<string, Flag>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: Flag;
  completions?: Flag;
  experimental?: Record<string, Flag>;
  extensions?: Record<string, Flag>;
  [key: string]: unknown;
}
