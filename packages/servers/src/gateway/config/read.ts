import { homedir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { getNodeValue, type Node } from "jsonc-parser";
import { JsoncSyntaxError, jsoncTree, withoutBom } from "../../config/jsonc.js";
import { separatorProblem } from "../naming.js";
import { check, child, propertiesOf } from "./check.js";
import { GatewayConfigError, Problems } from "./problems.js";
import { CONFIG_FILE } from "./schema.js";
import type { GatewayConfig, PolicyRule, RateConfig, UpstreamConfig, VirtualServerConfig } from "./types.js";
import { readUpstreams } from "./upstreams.js";

/** Where a configuration's text comes from, and what its variables read. */
export interface ReadOptions {
  /** The file's path (relative paths in it are relative to its folder). */
  file: string;
  /** The gateway's environment, for `${VAR}` (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** What `${userHome}` names (default: this user's home folder). */
  home?: string;
}

/** Paths the gateway serves itself (and an authorization server on its origin): no virtual server may take them. */
const RESERVED =
  /^\/(mcp|sse|messages|healthz|authorize|token|register|callback|consent|revoke|jwks|\.well-known)(\/|$)/;
const VIRTUAL_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * Reads a gateway configuration file's text (JSON with comments): checks it against the
 * schema and for what the schema cannot say (names that clash, a policy naming a server
 * that is not there), and throws a GatewayConfigError listing every mistake with its line
 * and column. Variables are expanded and env files read now, so a reload sees their changes.
 */
export function readGatewayConfig(text: string, options: ReadOptions): GatewayConfig {
  const file = resolve(options.file);
  const problems = new Problems(withoutBom(text));
  let root: Node | undefined;
  try {
    root = jsoncTree(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    const { line, column, reason } = error;
    throw new GatewayConfigError(file, [{ line, column, path: "", message: reason }]);
  }
  if (!root) {
    problems.add(undefined, "", "the file is empty: it needs mcpServers");
    throw new GatewayConfigError(file, problems.list);
  }
  check(root, CONFIG_FILE, "", problems);
  if (problems.list.length > 0) throw new GatewayConfigError(file, problems.list);

  const key = child(root, "mcpServers") ? "mcpServers" : "servers";
  const servers = child(root, key);
  if (!servers) problems.add(root, "", 'needs "mcpServers": the upstream servers, by name');
  const gateway = child(root, "gateway");
  const value = <T>(name: string): T | undefined => {
    const node = child(gateway, name);
    return node ? (getNodeValue(node) as T) : undefined;
  };
  const separator = value<string>("separator") ?? "_";
  const badSeparator = separatorProblem(separator);
  if (badSeparator) problems.add(child(gateway, "separator"), "gateway.separator", badSeparator);
  const expansion = {
    workspaceFolder: dirname(file),
    home: options.home ?? homedir(),
    env: options.env ?? process.env,
    envName: "the gateway's environment",
  };
  const upstreams = servers
    ? readUpstreams(servers, key, child(gateway, "servers"), badSeparator ? "_" : separator, expansion, problems)
    : [];
  const policyNode = child(gateway, "policy");
  const policy = policyNode && readPolicy(policyNode, upstreams, problems);
  const virtualServers = readVirtualServers(child(gateway, "virtualServers"), problems);
  if (problems.list.length > 0) throw new GatewayConfigError(file, problems.list);

  const audit = value<string>("audit");
  const rateLimit = value<RateConfig>("rateLimit");
  return {
    file,
    upstreams,
    separator,
    ...(audit !== undefined && {
      audit: {
        file: isAbsolute(audit) ? audit : resolve(dirname(file), audit),
        arguments: value<"digest" | "redacted">("auditArguments") ?? "digest",
      },
    }),
    redact: [...new Set((value<string[]>("redact") ?? []).map(redactionKey))],
    ...(policy && { policy }),
    ...(rateLimit && { rateLimit }),
    virtualServers,
    maxUpstreams: value<number>("maxUpstreams") ?? 16,
    startTimeoutMs: value<number>("startTimeoutMs") ?? 30_000,
    health: value<boolean>("health") ?? true,
  };
}

/** How argument keys are compared for redaction: `API-Key`, `api_key` and `apiKey` are one. */
export const redactionKey = (key: string) => key.toLowerCase().replace(/[-_]/g, "");

function readPolicy(node: Node, upstreams: UpstreamConfig[], problems: Problems): PolicyRule[] {
  const known = new Set(upstreams.map((u) => u.name));
  return (node.children ?? []).map((ruleNode, i) => {
    const rule = getNodeValue(ruleNode) as Partial<PolicyRule>;
    for (const list of ["allow", "deny"] as const)
      for (const [j, item] of (child(ruleNode, list)?.children ?? []).entries()) {
        const pattern = String(item.value);
        const server = pattern.split("/")[0] as string;
        const where = `gateway.policy[${i}].${list}[${j}]`;
        if (pattern === "*" || pattern === "*/*") continue;
        if (pattern.split("/").length > 2 || server === "" || pattern.endsWith("/"))
          problems.add(item, where, `"${pattern}" is not "server", "server/*" or "server/name"`);
        else if (!server.includes("*") && !known.has(server))
          problems.add(item, where, `names no server of mcpServers (${[...known].join(", ") || "none"})`);
      }
    if (!child(ruleNode, "allow") && !child(ruleNode, "deny") && !child(ruleNode, "rateLimit"))
      problems.add(ruleNode, `gateway.policy[${i}]`, 'says nothing: give it "allow", "deny" or "rateLimit"');
    return {
      when: rule.when ?? {},
      allow: rule.allow ?? [],
      deny: rule.deny ?? [],
      ...(rule.rateLimit && { rateLimit: rule.rateLimit }),
    };
  });
}

function readVirtualServers(node: Node | undefined, problems: Problems): VirtualServerConfig[] {
  return propertiesOf(node).flatMap(([path, value, property]) => {
    const where = `gateway.virtualServers.${path}`;
    if (!VIRTUAL_PATH.test(path)) {
      problems.add(property, where, 'a path is "/" and letters, digits, ".", "_", "~", "-" (e.g. "/triage")');
      return [];
    }
    if (RESERVED.test(path)) {
      problems.add(property, where, `${path} is a path the gateway serves itself: choose another`);
      return [];
    }
    const v = getNodeValue(value) as Partial<VirtualServerConfig>;
    return [
      {
        path,
        tools: v.tools ?? [],
        prompts: v.prompts ?? [],
        resources: v.resources === true,
        ...(v.instructions !== undefined && { instructions: v.instructions }),
      },
    ];
  });
}
