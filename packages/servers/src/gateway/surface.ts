import type { McpProxy } from "mcpkit/compose";
import type { McpServer, Mount, MountItem, Viewer } from "mcpkit/server";
import type { Selection, UpstreamConfig } from "./config/types.js";
import { matches, nameProblem, renameSuggestion, servedName } from "./naming.js";
import { claimsOf } from "./policy/claims.js";
import type { Policy, Target } from "./policy/policy.js";

/** What a served name stands for: an upstream's tool or prompt, by its upstream name. */
export interface Served {
  upstream: string;
  kind: "tool" | "prompt";
  name: string;
}

/**
 * The gateway's one surface: each upstream's proxy mounted into the gateway's server
 * under its prefix, its tools and prompts named, selected and described as configured,
 * each shown only to the principals the policy allows (the library's visibility rules:
 * what a principal may not use is neither listed nor callable).
 */
export class Surface {
  private readonly mounts = new Map<string, Mount>();
  private readonly served = new Map<string, Served>();
  private readonly byPrefix = new Map<string, string>();
  private policy: Policy;
  private separator: string;

  constructor(
    readonly server: McpServer,
    options: { policy: Policy; separator: string; onError: (error: unknown) => void },
  ) {
    this.policy = options.policy;
    this.separator = options.separator;
    this.onError = options.onError;
  }

  private readonly onError: (error: unknown) => void;

  /** Serves an upstream's proxy, in place of what served it before (one list_changed per list, if any). */
  serve(upstream: UpstreamConfig, proxy: McpProxy): void {
    const previous = this.mounts.get(upstream.name);
    this.forget(upstream.name);
    previous?.unmount();
    this.byPrefix.set(upstream.prefix, upstream.name).set(upstream.prefix.replace(/_/g, "-"), upstream.name);
    const mount = this.server.mount(upstream.prefix, proxy.server, {
      separator: this.separator,
      select: (item) => this.select(upstream, item),
      visible: (viewer, item) => this.allows(viewer, this.targetOf(upstream.name, item)),
    });
    this.mounts.set(upstream.name, mount);
  }

  /** Takes an upstream's tools, prompts and resources out (clients are told). */
  remove(name: string): void {
    this.mounts.get(name)?.unmount();
    this.mounts.delete(name);
    this.forget(name);
  }

  /** A new separator: the caller serves each upstream again, and its names change. */
  setSeparator(separator: string): void {
    this.separator = separator;
  }

  /** A new policy: each session whose view changes is told (the lists' fingerprints). */
  setPolicy(policy: Policy): void {
    this.policy = policy;
    for (const kind of ["tools", "prompts", "resources"] as const) this.server.listChanged(kind);
  }

  /** What a served tool or prompt name stands for, if the gateway serves it. */
  target(kind: "tool" | "prompt", name: string): Served | undefined {
    const served = this.served.get(`${kind} ${name}`);
    return served && this.mounts.has(served.upstream) ? served : undefined;
  }

  /** The upstream whose resources a URI names (the mount's rule: `scheme://prefix/…` or `prefix+…`). */
  upstreamOfUri(uri: string): string | undefined {
    const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/]*)\//.exec(uri)?.[1];
    const joined = /^([A-Za-z0-9][A-Za-z0-9.-]*)\+[A-Za-z]/.exec(uri)?.[1];
    const name = this.byPrefix.get(authority ?? "") ?? this.byPrefix.get(joined ?? "");
    return name !== undefined && this.mounts.has(name) ? name : undefined;
  }

  /** Whether the viewer may see and use the target (always, without a policy). */
  allows(viewer: Pick<Viewer, "auth">, target: Target): boolean {
    return !this.policy.active || this.policy.allows(claimsOf(viewer.auth), target);
  }

  private targetOf(upstream: string, item: MountItem): Target {
    if (item.kind === "resource" || item.kind === "template") return { server: upstream, kind: "resource" };
    return { server: upstream, kind: item.kind, name: item.key };
  }

  /** Whether an upstream's tool or prompt is served, under which name and description. */
  private select(upstream: UpstreamConfig, item: MountItem): boolean | { name: string; description?: string } {
    if (item.kind === "resource" || item.kind === "template") return true;
    const selection: Selection = item.kind === "tool" ? upstream.tools : upstream.prompts;
    if (selection.allow && !selection.allow.some((p) => matches(p, item.key))) return false;
    if (selection.deny.some((p) => matches(p, item.key))) return false;
    const name = servedName(upstream.prefix, this.separator, item.key, selection.rename[item.key]);
    const problem = nameProblem(name);
    if (problem) {
      this.onError(
        new Error(
          `The "${upstream.name}" server's ${item.kind} "${item.key}" is not served: ${problem}; ${renameSuggestion(upstream.name, `${item.kind}s`, item.key, name)}`,
        ),
      );
      return false;
    }
    this.served.set(`${item.kind} ${name}`, { upstream: upstream.name, kind: item.kind, name: item.key });
    const description = selection.describe[item.key];
    return { name, ...(description !== undefined && { description }) };
  }

  private forget(upstream: string): void {
    for (const [key, served] of this.served) if (served.upstream === upstream) this.served.delete(key);
    for (const [prefix, name] of this.byPrefix) if (name === upstream) this.byPrefix.delete(prefix);
  }
}
