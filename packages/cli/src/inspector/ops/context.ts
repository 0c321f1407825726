import type { AppViews } from "../app-views.js";
import type { OpName, RequestOf, ResponseOf } from "../contract/operations.js";
import type { InspectorSession } from "../session.js";
import type { JsonBody } from "./check.js";

/** What an operation is given besides the page's body. */
export interface OpContext {
  session: InspectorSession;
  views: AppViews;
  /** Calls in flight, by the page's id for them, so the page can cancel them. */
  calls: Map<string, AbortController>;
  /** The name the command line gave the server by (`mcpkit inspect NAME`), if it did. */
  serverName?: string;
}

/**
 * One operation of the table (../contract/operations.ts): `parse` checks the page's JSON
 * and gives the request the table names (or throws an OpError naming what is wrong); `run`
 * answers it with the response the table names.
 */
export interface Operation<N extends OpName> {
  parse(body: JsonBody): RequestOf<N>;
  run(request: RequestOf<N>, ctx: OpContext): Promise<ResponseOf<N>>;
}

/** A part of the table, typed so that each entry's request and response are its own name's. */
export type OperationTable<N extends OpName> = { [K in N]: Operation<K> };
