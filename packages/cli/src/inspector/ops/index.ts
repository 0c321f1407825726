import type { OpName, ResponseOf } from "../contract/operations.js";
import type { JsonBody } from "./check.js";
import { connectionOps } from "./connection.js";
import type { OpContext, OperationTable } from "./context.js";
import { exportOps } from "./exports.js";
import { extensionOps } from "./extensions.js";
import { featureOps } from "./features.js";
import { gatewayOps } from "./gateway.js";

export type { JsonBody } from "./check.js";
export type { OpContext, Operation } from "./context.js";

/**
 * Everything the page can ask of the inspected server, by name (../contract/operations.ts):
 * each is one call of mcpkit's public Client. Typed as the whole table, so an operation
 * the contract names and this lacks, or one whose answer is not the contract's, does not
 * compile.
 */
export const OPS: OperationTable<OpName> = {
  ...connectionOps,
  ...featureOps,
  ...extensionOps,
  ...exportOps,
  ...gatewayOps,
};

export const isOpName = (name: string): name is OpName => Object.hasOwn(OPS, name);

/** Checks the page's body and runs the operation (an OpError for a body that is not the operation's). */
export function runOperation<N extends OpName>(name: N, body: JsonBody, ctx: OpContext): Promise<ResponseOf<N>> {
  const op = OPS[name];
  return op.run(op.parse(body), ctx);
}
