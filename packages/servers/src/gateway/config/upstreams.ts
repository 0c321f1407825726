import { isAbsolute, resolve } from "node:path";
import { getNodeValue, type Node } from "jsonc-parser";
import { expandVariables, readEnvFile, type VariableScope } from "../../config/variables.js";
import { nameProblem, prefixProblem, servedName, serverPrefix } from "../naming.js";
import { child, propertiesOf } from "./check.js";
import { fileAccessProblem } from "./file-access.js";
import type { Problems } from "./problems.js";
import type { PersonToken, Selection, UpstreamConfig, UpstreamTarget } from "./types.js";

/** What values in the file may refer to: the file's folder (`${workspaceFolder}`), the home folder, the gateway's environment. */
export interface Expansion extends VariableScope {
  workspaceFolder: string;
}

/** Reads `mcpServers` (with `gateway.servers`) into upstreams, adding a problem at each mistake. */
export function readUpstreams(
  servers: Node,
  key: string,
  options: Node | undefined,
  separator: string,
  expansion: Expansion,
  problems: Problems,
): UpstreamConfig[] {
  const upstreams: UpstreamConfig[] = [];
  const byPrefix = new Map<string, string>();
  const served = new Map<string, string>();
  const names = new Set(propertiesOf(servers).map(([name]) => name));
  for (const [name, , property] of propertiesOf(options))
    if (!names.has(name))
      problems.add(
        property,
        `gateway.servers.${name}`,
        `names no server of ${key} (${[...names].join(", ") || "none"})`,
      );

  for (const [name, entry, property] of propertiesOf(servers)) {
    const path = `${key}.${name}`;
    if (getNodeValue(entry)?.disabled === true) continue;
    const own = child(options, name);
    const badPrefix = prefixProblem(name);
    if (badPrefix) {
      problems.add(property, path, badPrefix);
      continue;
    }
    const prefix = serverPrefix(name);
    // Two names that write the same prefix (or the same in a URI scheme) would serve one namespace.
    const uriPrefix = prefix.replace(/_/g, "-");
    const clash = byPrefix.get(prefix) ?? byPrefix.get(uriPrefix);
    if (clash !== undefined) {
      problems.add(property, path, `serves its tools under "${prefix}", as "${clash}" does: rename one of them`);
      continue;
    }
    byPrefix.set(prefix, name).set(uriPrefix, name);
    const target = readTarget(entry, own, path, expansion, problems);
    const token = readToken(child(own, "token"), target, `gateway.servers.${name}.token`, problems);
    const tools = readSelection(child(own, "tools"), `gateway.servers.${name}.tools`, problems);
    const prompts = readSelection(child(own, "prompts"), `gateway.servers.${name}.prompts`, problems);
    for (const [kind, selection] of [
      ["tools", tools],
      ["prompts", prompts],
    ] as const)
      for (const [upstreamName, renamed] of Object.entries(selection.rename)) {
        const at = child(child(child(own, kind), "rename"), upstreamName);
        const where = `gateway.servers.${name}.${kind}.rename.${upstreamName}`;
        const problem = nameProblem(renamed);
        if (problem) problems.add(at, where, problem);
        const other = served.get(`${kind} ${renamed}`);
        if (other !== undefined) problems.add(at, where, `"${renamed}" is already the name of ${other}`);
        served.set(`${kind} ${renamed}`, `${name}'s ${upstreamName}`);
      }
    const tooLong = nameProblem(servedName(prefix, separator, "x"));
    if (tooLong) problems.add(property, path, `its prefix leaves no room for names: ${tooLong}`);
    if (!target) continue;
    const perSession = child(own, "perSession")?.value === true;
    upstreams.push({
      name,
      prefix,
      target,
      tools,
      prompts,
      // One person's token per process: a stdio server given one runs per session.
      perSession: perSession || (token !== undefined && target.transport === "stdio"),
      ...(token && { token }),
    });
  }
  return upstreams;
}

function readTarget(
  entry: Node,
  own: Node | undefined,
  path: string,
  expansion: Expansion,
  problems: Problems,
): UpstreamTarget | undefined {
  const x = (node: Node | undefined, where: string): string | undefined => {
    if (node?.type !== "string") return undefined;
    try {
      return expandVariables(node.value as string, expansion);
    } catch (error) {
      problems.add(node, where, (error as Error).message);
      return undefined;
    }
  };
  const map = (node: Node | undefined, where: string) =>
    Object.fromEntries(propertiesOf(node).map(([k, v]) => [k, x(v, `${where}.${k}`) ?? ""]));
  const type = child(entry, "type")?.value as string | undefined;
  const url = child(entry, "url");
  if (url || (type !== undefined && type !== "stdio")) {
    if (!url) {
      problems.add(entry, path, `a "${type}" server needs a "url"`);
      return undefined;
    }
    const href = x(url, `${path}.url`);
    if (href === undefined) return undefined;
    try {
      const parsed = new URL(href);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
    } catch {
      problems.add(url, `${path}.url`, `"${href}" is not an http:// or https:// URL`);
      return undefined;
    }
    return {
      transport: type === "sse" ? "sse" : "http",
      url: href,
      headers: map(child(entry, "headers"), `${path}.headers`),
    };
  }
  const command = child(entry, "command");
  if (command?.type !== "string" || command.value === "") {
    problems.add(entry, path, 'needs a "command" (a stdio server) or a "url" (an HTTP one)');
    return undefined;
  }
  const env: Record<string, string> = {};
  for (const [file, where] of [
    [child(entry, "envFile"), `${path}.envFile`],
    [child(own, "envFile"), `gateway.servers.${path.split(".").slice(1).join(".")}.envFile`],
  ] as const) {
    const value = x(file, where);
    if (value === undefined) continue;
    try {
      const envFile = isAbsolute(value) ? value : resolve(expansion.workspaceFolder, value);
      const values = readEnvFile(envFile);
      const access = fileAccessProblem(envFile, "the environment a command runs in");
      if (access) throw new Error(access);
      Object.assign(env, values);
    } catch (error) {
      problems.add(file, where, (error as Error).message);
    }
  }
  Object.assign(env, map(child(entry, "env"), `${path}.env`));
  const cwd = x(child(entry, "cwd"), `${path}.cwd`);
  return {
    transport: "stdio",
    command: x(command, `${path}.command`) ?? "",
    args: (child(entry, "args")?.children ?? []).map((a, i) => x(a, `${path}.args[${i}]`) ?? ""),
    env,
    cwd:
      cwd === undefined ? expansion.workspaceFolder : isAbsolute(cwd) ? cwd : resolve(expansion.workspaceFolder, cwd),
  };
}

function readSelection(node: Node | undefined, path: string, problems: Problems): Selection {
  const strings = (key: string) => {
    const list = child(node, key);
    return list ? (getNodeValue(list) as string[]) : undefined;
  };
  const texts = (key: string) =>
    Object.fromEntries(propertiesOf(child(node, key)).map(([k, v]) => [k, String(v.value)]));
  const allow = strings("allow");
  for (const [i, item] of (child(node, "allow")?.children ?? []).entries())
    if (item.value === "") problems.add(item, `${path}.allow[${i}]`, "an empty name matches nothing");
  return { ...(allow && { allow }), deny: strings("deny") ?? [], rename: texts("rename"), describe: texts("describe") };
}

function readToken(
  node: Node | undefined,
  target: UpstreamTarget | undefined,
  path: string,
  problems: Problems,
): PersonToken | undefined {
  if (!node || !target) return undefined;
  const value = getNodeValue(node) as { provider?: string; env?: string; header?: string; scheme?: string };
  if (!value.provider) return undefined;
  if (target.transport === "stdio" && !value.env) {
    problems.add(node, path, 'a stdio server gets the token in a variable: add "env" (e.g. "GITHUB_TOKEN")');
    return undefined;
  }
  if (target.transport !== "stdio" && value.env !== undefined)
    problems.add(child(node, "env"), `${path}.env`, 'an HTTP server gets the token in a header: use "header"');
  if (value.env !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value.env))
    problems.add(child(node, "env"), `${path}.env`, `"${value.env}" is not a variable name`);
  if (value.header !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value.header))
    problems.add(child(node, "header"), `${path}.header`, `"${value.header}" is not a header name`);
  return {
    provider: value.provider,
    ...(value.env !== undefined && { env: value.env }),
    header: value.header ?? "Authorization",
    scheme: value.scheme ?? "Bearer",
  };
}
