import type { GatewayConfig } from "../config/types.js";
import { type AuditRecord, type AuditSink, fileAuditSink, type LogEmitter, otelAuditSink } from "./audit-log.js";
import { argumentsDigest, redactArguments } from "./redact.js";

/** Writes audit records where the configuration says, with its redaction; reconfigured on reload. */
export class Auditor {
  private sinks: AuditSink[] = [];
  private mode: "digest" | "redacted" = "digest";
  private keys: readonly string[] = [];
  private secrets: readonly string[] = [];
  private file: string | undefined;
  private readonly otel: AuditSink | undefined;

  constructor(logger: LogEmitter | undefined) {
    this.otel = logger && otelAuditSink(logger);
  }

  /** Whether anything is written: without a file or a logger, records are not even made. */
  get enabled(): boolean {
    return this.sinks.length > 0;
  }

  /** Applies a configuration: the file (kept open when unchanged), the arguments' form, the secrets never written. */
  async configure(config: GatewayConfig): Promise<void> {
    const file = config.audit?.file;
    // The new file first: one that cannot be written (or that another gateway writes) changes nothing.
    const opened = file !== this.file && file ? fileAuditSink(file) : undefined;
    this.mode = config.audit?.arguments ?? "digest";
    this.keys = config.redact;
    // Every credential the configuration holds: an argument that carries one is redacted.
    this.secrets = config.upstreams.flatMap((u) =>
      u.target.transport === "stdio" ? Object.values(u.target.env) : Object.values(u.target.headers),
    );
    if (file !== this.file) {
      const previous = this.sinks.filter((s) => s !== this.otel);
      this.sinks = [...(opened ? [opened] : []), ...(this.otel ? [this.otel] : [])];
      this.file = file;
      await Promise.all(previous.map((s) => s.close()));
    } else if (this.sinks.length === 0 && this.otel) this.sinks = [this.otel];
  }

  /** The arguments as the log keeps them: redacted, or their digest. */
  arguments(args: unknown): Pick<AuditRecord, "arguments" | "argumentsDigest"> {
    if (args === undefined) return {};
    if (this.mode === "digest") return { argumentsDigest: argumentsDigest(args) };
    return { arguments: redactArguments(args, { keys: this.keys, secrets: this.secrets }) };
  }

  /** An error's message as the log keeps it: the configuration's credentials replaced wherever they appear. */
  message(text: string): string {
    return redactArguments(text, { keys: [], secrets: this.secrets }) as string;
  }

  write(record: AuditRecord): void {
    for (const sink of this.sinks) sink.write(record);
  }

  async close(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.close()));
    this.sinks = [];
    this.file = undefined;
  }
}
