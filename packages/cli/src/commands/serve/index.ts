import { durationMs, readOptions } from "@mcpkit/servers/options";
import { Command, Option } from "commander";
import { SERVER_NAMES, SERVERS, serverFlags } from "../../built-in/catalog.js";
import { flagOptions, givenValues } from "../../built-in/flag-options.js";
import type { ServerFlags, Shared } from "../../built-in/served.js";
import { moduleFlags } from "../../module/flags.js";
import { isModulePath } from "../../module/server-module.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { type AuthFlags, authOptions, checkAuthFlags } from "./auth-flags.js";
import {
  type AuthorizationServerFlags,
  authorizationServerOptions,
  checkAuthorizationServerFlags,
} from "./authorization-server.js";
import { type Cluster, joinCluster, stateKey } from "./cluster.js";
import { type ServingFlags, servingOptions } from "./http-flags.js";
import { httpLimits, portNumber } from "./limits.js";
import { shutdownOnSignals } from "./shutdown.js";
import { serveStdio } from "./stdio.js";
import { trustProxyFlag } from "./trust-proxy.js";

/** The options every server takes; each server's own come from its flags module. */
interface CommonOptions extends ServingFlags, AuthFlags, AuthorizationServerFlags {
  serverCard?: string | true;
}

/** What commander parsed: the common options, and the chosen server's own under their attribute names. */
type Parsed = CommonOptions & Readonly<Record<string, unknown>>;

const DEFAULT_SERVER = "workspace";

const commonOptions = (): Option[] => [
  ...servingOptions(),
  new Option(
    "--server-card [name]",
    "with --port: serve a Server Card (SEP-2127, a draft) at /.well-known/mcp/server-card.json, named NAME (namespace/name; default local/SERVER)",
  ),
  ...authOptions(),
  ...authorizationServerOptions(),
];

/** The long flag of an option, as typed (`--max-sessions`). */
const flagOf = (option: Option) => option.long ?? option.flags;

/**
 * The server a `serve` command line names: the first operand that is not the value of an
 * option, or the default. Only the common options are known at this point, so a value after
 * another flag is skipped when it is not a server's name.
 */
export function pickServer(args: readonly string[], common: readonly Option[]): string {
  const takesValue = new Set(common.filter((o) => o.required || o.optional).map(flagOf));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      if (!arg.includes("=") && (takesValue.has(arg) || !common.some((o) => flagOf(o) === arg))) {
        // A common option's value is never the server; another flag's value may be (a boolean flag).
        const next = args[i + 1];
        if (takesValue.has(arg) || (next !== undefined && !(next in SERVERS))) i++;
      }
      continue;
    }
    return arg;
  }
  return DEFAULT_SERVER;
}

/** A flag on the command line that the chosen server does not take, with the servers that do. */
async function strayFlag(args: string[], known: Option[], name: string): Promise<UsageError | undefined> {
  const knownFlags = new Set(known.map(flagOf));
  for (const arg of args) {
    if (arg === "--") break;
    if (!arg.startsWith("--")) continue;
    const flag = arg.split("=")[0] as string;
    if (knownFlags.has(flag)) continue;
    // Only on this path are the other servers loaded: to say which of them the flag is for.
    const owners: string[] = [];
    for (const other of SERVER_NAMES.filter((n) => n !== name)) {
      if ([...ownOptions(await serverFlags(other))].some((o) => flagOf(o) === flag)) owners.push(other);
    }
    if (owners.length > 0)
      return new UsageError(
        `${flag} applies to the ${owners.join(" and ")} server${owners.length > 1 ? "s" : ""} only`,
      );
  }
  return undefined;
}

/** A server's own flags, made from its options' descriptions. */
const ownOptions = (flags: ServerFlags | undefined): Option[] =>
  flags ? [...flagOptions(flags.options).values()] : [];

/** Every server's options, grouped under its name, for help. */
async function allServerOptions(): Promise<Option[]> {
  const byFlag = new Map<string, Option>();
  for (const name of SERVER_NAMES) {
    for (const option of ownOptions(await serverFlags(name))) {
      const seen = byFlag.get(flagOf(option));
      if (seen) seen.description += ` (${name}: ${option.description})`;
      else byFlag.set(flagOf(option), option.helpGroup(`${name} options:`));
    }
  }
  return [...byFlag.values()];
}

/**
 * `mcpkit serve [server] [target...]`. Built for the command line it will parse: only the
 * named server's flags module is loaded (help loads them all, to list them).
 */
export async function serveCommand(argv: string[] = process.argv): Promise<Command> {
  const args = argv[2] === "serve" ? argv.slice(3) : undefined;
  const help = args === undefined || args.includes("--help") || args.includes("-h");
  const common = commonOptions();
  const name = help ? undefined : pickServer(args as string[], common);
  const chosen =
    name === undefined
      ? undefined
      : ((await serverFlags(name)) ?? (isModulePath(name) ? moduleFlags(name) : undefined));
  const own = help ? await allServerOptions() : ownOptions(chosen);
  if (name !== undefined && chosen === undefined) throw unknownServer(name);
  if (!help) {
    const stray = await strayFlag(args as string[], [...common, ...own], name as string);
    if (stray) throw stray;
  }

  const command = new Command("serve")
    .description(COMMAND_SUMMARIES.serve.description)
    .argument(
      "[server]",
      `which server: ${SERVER_NAMES.join(", ")}, or your module's path (./server.js or .ts: its default export)`,
      DEFAULT_SERVER,
    )
    .argument("[target...]", "proxy: the URL of the server to front, or -- and the command that starts it");
  for (const option of [...common, ...own]) command.addOption(option);
  // Commander's own usage errors (an unknown option, a missing value) exit 2, as ours do.
  command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
  return command.action(async (given: string, operands: string[], options: Parsed) => {
    if (given !== name || !chosen) throw unknownServer(given);
    await serve(given, chosen, operands, options);
  });
}

const unknownServer = (name: string) =>
  new UsageError(
    `Unknown server "${name}"; choose one of ${SERVER_NAMES.join(", ")}, or give your server module's path (./server.js)`,
  );

async function serve(name: string, flags: ServerFlags, operands: string[], options: Parsed): Promise<void> {
  if (!flags.operands && operands.length > 0)
    throw new UsageError(`serve ${name} takes no further arguments (got "${operands.join(" ")}")`);
  if (options.redis !== undefined && flags.cluster !== true)
    throw new UsageError(`serve ${name} cannot run as a node of a cluster (--redis): ${flags.cluster.refused}`);
  const port = options.port === undefined ? undefined : portNumber(options.port);
  const limits = httpLimits(options);
  const trustProxy = await trustProxyFlag(options.trustProxy, options.port);
  if (options.serverCard !== undefined && port === undefined)
    throw new UsageError("--server-card is served over HTTP: add --port");
  const upstream = checkAuthorizationServerFlags(options, {
    http: port !== undefined,
    host: options.host,
    cluster: options.redis !== undefined,
  });
  const authorized = checkAuthFlags(options, options.port !== undefined);
  // Where people sign in (--authorization-server): "dev", "oidc" or a preset's name.
  const signIn = upstream && { upstream: upstream.kind === "preset" ? upstream.name : upstream.kind };
  // The server's own flags, read and checked by their descriptions into the values its factory takes.
  const values = readOptions(flags.options, givenValues(flags.options, options));
  flags.check?.(values, { cluster: options.redis !== undefined, ...signIn });
  const cluster: Cluster | undefined = options.redis === undefined ? undefined : await joinCluster(options);
  const shared: Shared = {
    ...(options.stateKey !== undefined && { requestStateKey: stateKey(options.stateKey) }),
    ...(cluster && { eventBus: cluster.eventBus, tasks: { store: cluster.taskStore } }),
  };
  const shutdownMs =
    options.shutdownTimeout === undefined ? 10_000 : durationMs(options.shutdownTimeout, "--shutdown-timeout");
  const served = await flags
    .create(values, {
      operands,
      shared,
      cluster: cluster !== undefined,
      http: port !== undefined,
      ...signIn,
    })
    .catch(async (error) => {
      await cluster?.close();
      throw error;
    });
  const shutdown = shutdownOnSignals({ timeoutMs: shutdownMs });
  let code = 0;
  try {
    if (served.summary) process.stderr.write(`mcpkit serve ${name}:\n${indent(served.summary)}\n`);
    if (port === undefined) await serveStdio(served.server, name, shutdown.requested, served.ended);
    else {
      // The HTTP endpoint is loaded only to serve HTTP: a stdio server never needs it.
      const { isLocal, serveHttp } = await import("./http.js");
      if (flags.exposes && !isLocal(options.host) && !authorized && !upstream) {
        process.stderr.write(
          `mcpkit: warning: --host ${options.host} serves ${flags.exposes} to the network without authentication (see --auth-server)\n`,
        );
      }
      await serveHttp(served.server, {
        port,
        host: options.host,
        ...(authorized && { auth: options }),
        ...(upstream && {
          authorization: {
            choice: upstream,
            flags: options,
            upstreamScopes: upstream.kind === "preset" ? flags.upstreamScopes?.[upstream.name] : undefined,
          },
        }),
        limits: {
          ...(served.idleTimeoutMs !== undefined && { idleTimeoutMs: served.idleTimeoutMs }),
          ...limits,
          ...(served.admitSession && { admitSession: served.admitSession }),
        },
        ...(trustProxy && { trustProxy }),
        stop: shutdown.requested,
        ...(served.ended && { ended: served.ended }),
        ...(cluster && { cluster }),
        ...(options.serverCard !== undefined && {
          serverCard: serverCardName(options.serverCard, served.server.info.name),
        }),
      });
    }
  } catch (error) {
    process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  } finally {
    shutdown.begin();
    await served.close();
    await cluster?.close();
  }
  // The last answers over stdio are written first (a pipe may be asynchronous: macOS).
  if (process.stdout.writableNeedDrain) await new Promise((resolve) => process.stdout.once("drain", resolve));
  // Whatever the server still holds (timers of abandoned work), the process ends now.
  shutdown.finish(code);
}

/** The card's name: given, or `local/` and the server's own name (the card wants namespace/name). */
function serverCardName(given: string | true, server: string): string {
  return typeof given === "string" ? given : `local/${server.replace(/[^a-zA-Z0-9._-]+/g, "-")}`;
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
