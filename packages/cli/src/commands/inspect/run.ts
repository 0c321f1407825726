import { durationMs } from "@mcpkit/servers/options";
import { freshLinksOnEnter } from "../../inspector/fresh-links.js";
import { describeTarget, isProtocolChoice, startInspector } from "../../inspector/index.js";
import { rootFor } from "../connection-flags.js";
import { resolveServer, type ServerTargetOptions } from "../server-target.js";
import { UsageError } from "../usage-error.js";
import { openBrowser } from "./open-browser.js";

export interface InspectCommandOptions extends ServerTargetOptions {
  port?: string;
  open?: boolean;
  protocol: string;
  timeout?: string;
  pingInterval?: string;
  /** --allow-spawn PROGRAM,… (repeatable): the programs the page may start. */
  allowSpawn?: string[];
  /** --root PATH|URI (repeatable): the roots offered instead of the server's folder. */
  root?: string[];
}

/**
 * Starts the inspector, prints its URL (on stdout, alone on its line, for scripts) and
 * runs until Ctrl+C or SIGTERM, which close the connection (and a stdio server) first.
 * Enter prints a fresh URL (each opens the inspector once: a new tab, another browser).
 */
export async function runInspect(
  words: string[],
  argv: readonly string[],
  options: InspectCommandOptions,
): Promise<void> {
  const { target, name } = await resolveServer(words, argv, options, "inspect");
  if (!isProtocolChoice(options.protocol))
    throw new UsageError(`--protocol takes auto, legacy, modern or a revision mcpkit speaks, not ${options.protocol}`);
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port takes a port number, not ${options.port}`);
  const timeoutMs = options.timeout === undefined ? 300_000 : durationMs(options.timeout, "--timeout", { min: 0 });
  const pingIntervalMs =
    options.pingInterval === undefined ? 5000 : durationMs(options.pingInterval, "--ping-interval", { min: 0 });

  const inspector = await startInspector({
    target,
    protocol: options.protocol,
    port,
    timeoutMs,
    pingIntervalMs,
    allowSpawn: spawnList(options.allowSpawn ?? []),
    ...(options.root?.length && { roots: options.root.map(rootFor) }),
    ...(name !== undefined && { serverName: name }),
  });
  process.stderr.write(
    `mcpkit inspect: inspecting ${describeTarget(target)}\nOpen the inspector (once; the token is single-use; Enter prints a fresh link):\n`,
  );
  process.stdout.write(`${inspector.url}\n`);
  const opened = options.open ? openBrowser(inspector.url) : undefined;
  const stopReading = freshLinksOnEnter(() => inspector.freshUrl());

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  stopReading();
  opened?.();
  await inspector.close();
  process.exit(0);
}

/** `--allow-spawn node,npx` (and repeated): program names, each as the page must give it. */
export function spawnList(values: readonly string[]): string[] {
  const programs = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  const bad = programs.find((name) => name === "" || /[\0\s]/.test(name));
  if (bad !== undefined)
    throw new UsageError(
      `--allow-spawn takes program names separated by commas (node,npx), not ${JSON.stringify(values.join(","))}`,
    );
  return [...new Set(programs)];
}
