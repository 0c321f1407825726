import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { lockAuditFile } from "./writer-lock.js";

/** One call through the gateway, as the audit log keeps it. */
export interface AuditRecord {
  /** When the call came (ISO 8601). */
  time: string;
  /** `user:<issuer>:<subject>` (principalOf), absent without sign-in. */
  principal?: string;
  /** The legacy session's id, absent for a 2026-07-28 request. */
  session?: string;
  /** The MCP method: tools/call, prompts/get or resources/read. */
  method: string;
  /** The upstream's name in mcpServers; absent when the name called is none of theirs. */
  upstream?: string;
  /** The upstream's own name of the tool called. */
  tool?: string;
  /** The upstream's own name of the prompt got. */
  prompt?: string;
  /** The name the tool or prompt was called by: namespaced, or renamed. */
  served?: string;
  /** The URI read, as the client named it. */
  resource?: string;
  /** The arguments with redaction (gateway.auditArguments: "redacted"). */
  arguments?: unknown;
  /** `sha256:` and the hex digest of the arguments, keys sorted (gateway.auditArguments: "digest", the default). */
  argumentsDigest?: string;
  /**
   * How it ended: answered, answered with `isError`, failed, refused by the policy or the
   * rate limit, cancelled by its client, or (2026-07-28) a round that asked the client for
   * input, the call going on in the request that answers.
   */
  outcome: "ok" | "tool-error" | "error" | "denied" | "rate-limited" | "cancelled" | "input-required";
  /** The JSON-RPC error of an `error`, `denied` or `rate-limited` call, the configuration's credentials replaced. */
  error?: { code: number; message: string };
  /** From the call's arrival to its answer, in milliseconds. */
  durationMs: number;
}

/** Where audit records go besides the file: an OpenTelemetry Logger (`logs.getLogger(…)` of @opentelemetry/api-logs). */
export interface LogEmitter {
  /** Emits one log record (OpenTelemetry's LogRecord: the line as the body, its fields as attributes). */
  emit(record: {
    timestamp?: number;
    severityNumber?: number;
    severityText?: string;
    body?: string;
    attributes?: Record<string, string | number | boolean | undefined>;
  }): void;
}

export interface AuditSink {
  write(record: AuditRecord): void;
  close(): Promise<void>;
}

/** The hash that links a line to the one before: SHA-256 of the previous hash and the line without its own. */
export const chainHash = (previous: string, line: string) =>
  createHash("sha256").update(previous).update("\n").update(line).digest("hex");

/**
 * Appends one JSON line per record to `path` (created 0600, its folder too; opened for
 * appending only, never truncated), the lines of one event-loop turn in one write. Each line carries `seq` and `hash`, which chains it to
 * the line before, so that a line edited, removed or inserted afterwards shows:
 * `verifyAuditLog` finds the first such line. A file that exists is continued, its chain too.
 * One process writes it at a time (writer-lock.ts): another gateway given it is refused.
 */
export function fileAuditSink(path: string): AuditSink {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const release = lockAuditFile(path);
  let fd: number;
  try {
    fd = openSync(path, "a+", 0o600);
  } catch (error) {
    release();
    throw error;
  }
  let { seq, hash } = lastLink(fd);
  let closed = false;
  // The lines of one event-loop turn, written together at its end: one write, in order.
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    writeSync(fd, text);
  };
  return {
    write(record) {
      if (closed) return;
      seq += 1;
      const body = JSON.stringify({ ...record, seq });
      hash = chainHash(hash, body);
      if (pending.length === 0) setImmediate(flush);
      pending.push(`${body.slice(0, -1)},"hash":"${hash}"}\n`);
    },
    async close() {
      if (closed) return;
      closed = true;
      flush();
      closeSync(fd);
      release();
    },
  };
}

/** The sequence number and hash of the file's last line, to continue its chain. */
function lastLink(fd: number): { seq: number; hash: string } {
  const size = fstatSync(fd).size;
  if (size === 0) return { seq: 0, hash: "" };
  const length = Math.min(size, 256 * 1024);
  const buffer = Buffer.alloc(length);
  readSync(fd, buffer, 0, length, size - length);
  const lines = buffer.toString("utf8").split("\n").filter(Boolean);
  // A last line that is not ours (cut short by a crash): a new chain starts after it.
  const last = /"seq":(\d+),"hash":"([0-9a-f]{64})"\}$/.exec(lines.at(-1) ?? "");
  return last ? { seq: Number(last[1]), hash: last[2] as string } : { seq: 0, hash: "" };
}

/** Where the chain of an audit log breaks: the first line (1-based) that is not what its predecessor promised. */
export function verifyAuditLog(text: string): { ok: true; lines: number } | { ok: false; line: number; why: string } {
  let hash = "";
  let seq = 0;
  const lines = text.split("\n").filter(Boolean);
  for (const [i, line] of lines.entries()) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return { ok: false, line: i + 1, why: "not JSON" };
    }
    const { hash: own, ...rest } = record;
    if (typeof own !== "string") return { ok: false, line: i + 1, why: "no hash" };
    if (rest.seq !== seq + 1) return { ok: false, line: i + 1, why: `sequence ${String(rest.seq)} after ${seq}` };
    const expected = chainHash(hash, JSON.stringify(rest));
    if (expected !== own) return { ok: false, line: i + 1, why: "its hash does not follow from the line before" };
    hash = own;
    seq += 1;
  }
  return { ok: true, lines: lines.length };
}

/** Sends each record to an OpenTelemetry logger: the line as the body, its fields as attributes. */
export function otelAuditSink(logger: LogEmitter): AuditSink {
  return {
    write(record) {
      const failed = record.outcome !== "ok" && record.outcome !== "cancelled" && record.outcome !== "input-required";
      logger.emit({
        timestamp: Date.parse(record.time),
        severityNumber: failed ? 13 : 9,
        severityText: failed ? "WARN" : "INFO",
        body: JSON.stringify(record),
        attributes: {
          "event.name": "mcpkit.gateway.call",
          "mcp.method.name": record.method,
          "mcpkit.gateway.upstream": record.upstream,
          "mcpkit.gateway.outcome": record.outcome,
          "mcpkit.gateway.principal": record.principal,
          ...(record.tool !== undefined && { "gen_ai.tool.name": record.tool }),
          ...(record.prompt !== undefined && { "gen_ai.prompt.name": record.prompt }),
          ...(record.resource !== undefined && { "mcp.resource.uri": record.resource }),
          ...(record.session !== undefined && { "mcp.session.id": record.session }),
          ...(record.error && { "rpc.response.status_code": String(record.error.code) }),
          "mcpkit.gateway.duration_ms": record.durationMs,
        },
      });
    },
    close: async () => {},
  };
}
