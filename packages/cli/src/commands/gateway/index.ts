import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  describeDiff,
  fileAccessProblem,
  GatewayConfigError,
  gatewayServer,
  readGatewayConfig,
  watchConfig,
} from "@mcpkit/servers/gateway";
import { durationMs } from "@mcpkit/servers/options";
import { Command, Option } from "commander";
import { VERSION } from "../../version.js";
import { type AuthFlags, authOptions, checkAuthFlags } from "../serve/auth-flags.js";
import {
  type AuthorizationServerFlags,
  authorizationServerOptions,
  checkAuthorizationServerFlags,
} from "../serve/authorization-server.js";
import { type Cluster, joinCluster, stateKey } from "../serve/cluster.js";
import { type ServingFlags, servingOptions } from "../serve/http-flags.js";
import { httpLimits, portNumber } from "../serve/limits.js";
import { shutdownOnSignals } from "../serve/shutdown.js";
import { serveStdio } from "../serve/stdio.js";
import { trustProxyFlag } from "../serve/trust-proxy.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { auditLogger } from "./audit-logger.js";
import { tokenWarnings } from "./token-warnings.js";

interface GatewayFlags extends ServingFlags, AuthFlags, AuthorizationServerFlags {
  config: string;
  watch: boolean;
}

const write = (line: string) => process.stderr.write(`${line}\n`);

export function gatewayCommand(): Command {
  const command = new Command("gateway")
    .description(COMMAND_SUMMARIES.gateway.description)
    .requiredOption(
      "--config <file>",
      "the team's MCP configuration (.mcp.json: mcpServers, and a gateway section; JSON with comments)",
    );
  const options = [
    ...servingOptions("each node reads its own --config"),
    new Option("--no-watch", "do not reload the configuration file when it changes"),
    ...authOptions(),
    ...authorizationServerOptions(),
  ];
  for (const option of options) command.addOption(option);
  command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
  return command.action(async (flags: GatewayFlags) => runGateway(flags));
}

async function runGateway(flags: GatewayFlags): Promise<void> {
  const http = flags.port !== undefined;
  const port = http ? portNumber(flags.port as string) : undefined;
  const limits = httpLimits(flags);
  const trustProxy = await trustProxyFlag(flags.trustProxy, flags.port);
  const choice = checkAuthorizationServerFlags(flags, { http, host: flags.host, cluster: flags.redis !== undefined });
  const authorized = checkAuthFlags(flags, http);
  if (flags.stateKey !== undefined) stateKey(flags.stateKey);
  const file = resolve(flags.config);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(configUnreadable(file, error as NodeJS.ErrnoException));
  }
  const access = fileAccessProblem(file);
  if (access) throw new UsageError(access);
  let config: ReturnType<typeof readGatewayConfig>;
  try {
    config = readGatewayConfig(text, { file });
  } catch (error) {
    if (error instanceof GatewayConfigError)
      throw new UsageError(`The configuration cannot be used:\n${error.message}`);
    throw error;
  }
  const cluster: Cluster | undefined = flags.redis === undefined ? undefined : await joinCluster(flags);
  const gateway = await gatewayServer(config, {
    version: VERSION,
    log: (line) => write(`mcpkit gateway: ${line}`),
    ...(await auditLogger()),
    ...(cluster && {
      server: { eventBus: cluster.eventBus, ...(flags.stateKey && { requestStateKey: flags.stateKey }) },
    }),
  });
  const shutdownMs =
    flags.shutdownTimeout === undefined ? 10_000 : durationMs(flags.shutdownTimeout, "--shutdown-timeout");
  const shutdown = shutdownOnSignals({ timeoutMs: shutdownMs });
  let code = 0;
  let listening: Awaited<ReturnType<typeof import("./http.js").listenGateway>> | undefined;
  const watch = flags.watch
    ? watchConfig(gateway, {
        onReload: (diff) => {
          write(`mcpkit gateway: reloaded ${file}: ${describeDiff(diff)}`);
          for (const line of tokenWarnings(gateway.config, listening?.signIn)) write(line);
          if (diff.virtualServers)
            listening
              ?.sync()
              .then((added) => {
                for (const url of added) write(`  virtual server: ${url}`);
              })
              .catch((error: unknown) => write(`mcpkit gateway: ${(error as Error).message}`));
        },
        onRefused: (error) =>
          write(
            `mcpkit gateway: ${file} changed but cannot be used; the last good configuration serves:\n${error.message}`,
          ),
      })
    : undefined;
  try {
    if (!http) {
      for (const line of tokenWarnings(gateway.config, undefined)) write(line);
      await serveStdio(gateway.server, "gateway", shutdown.requested);
    } else {
      const { isLocal, listenGateway } = await import("./http.js");
      if (!isLocal(flags.host) && !authorized && !choice)
        write(
          `mcpkit: warning: --host ${flags.host} serves every upstream to the network without sign-in (see --authorization-server)`,
        );
      listening = await listenGateway(gateway, {
        port: port as number,
        host: flags.host,
        ...(authorized && { auth: flags }),
        ...(choice && { authorization: { choice, flags } }),
        limits,
        ...(trustProxy && { trustProxy }),
        ...(cluster && { cluster }),
        write,
      });
      for (const line of tokenWarnings(gateway.config, listening.signIn)) write(line);
      write(`  Ctrl+C stops it`);
      await shutdown.requested;
    }
  } catch (error) {
    write(`mcpkit: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    shutdown.begin();
    watch?.close();
    await listening?.close();
    await gateway.close();
    await cluster?.close();
  }
  shutdown.finish(code);
}

/** Why --config cannot be read, in words, with what to do. */
function configUnreadable(file: string, error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT")
    return `--config ${file} does not exist: give the path of your team's .mcp.json (docs/gateway.md shows one)`;
  if (error.code === "EISDIR") return `--config ${file} is a folder: give the configuration file in it (its .mcp.json)`;
  if (error.code === "EACCES") return `--config ${file} cannot be read: permission denied for this user`;
  return `--config ${file} cannot be read: ${error.code ?? error.message}`;
}
