import { rmSync } from "node:fs";
import { relative } from "node:path";
import type { Mount } from "mcpkit/server";
import { createServer, type McpServer } from "mcpkit/server";
import { realLocation } from "../../files/real-location.js";
import { CompileError, createCompiler } from "../../module/compile.js";
import { moduleGraph } from "../../module/graph.js";
import { isTypeScript } from "../../module/import-module.js";
import { failingWhileUnloaded, failureLine } from "./failure.js";
import { type Generation, LoadFailure, startGeneration } from "./generation.js";

/** What the host says on the terminal. */
export interface DevLog {
  info(line: string): void;
  /** The module's own stderr, passed through. */
  passthrough(text: string): void;
}

/**
 * The server clients of `mcpkit dev` connect to. It never changes: each version of the
 * module runs in its own child process behind a proxy, mounted here at the root, and a
 * reload mounts the new version in place of the old, so connected clients stay connected
 * and see list_changed. A version that fails to load leaves the last good one serving;
 * while none serves, clients are answered with why (failure.ts).
 */
export class DevHost {
  readonly server: McpServer;
  private current: { generation: Generation; mount: Mount } | undefined;
  /** Why no version serves (the first did not load, or its process stopped): what clients are answered. */
  private failure: string | undefined;
  private running: Promise<void> = Promise.resolve();
  private pending = false;
  private closed = false;
  /** The module's own files (its import graph, links resolved) as last built; undefined before one built. */
  imports: () => ReadonlySet<string> | undefined = () => undefined;

  private constructor(
    private readonly module: string,
    private readonly load: () => Promise<Generation>,
    private readonly resources: { dispose(): Promise<void> } | undefined,
    private readonly log: DevLog,
    first: Generation | undefined,
    failure: string | undefined,
  ) {
    this.failure = failure;
    const info = first?.proxy.server.info;
    this.server = createServer({
      name: info?.name ?? "mcpkit-dev",
      version: info?.version ?? "0.0.0",
      ...(info?.title !== undefined && { title: info.title }),
      ...(info?.description !== undefined && { description: info.description }),
      ...(first?.proxy.server.options.instructions !== undefined && {
        instructions: first.proxy.server.options.instructions,
      }),
      // Declared from the start, so a client listens for changes even before the module loads.
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
      },
      onError: (error) => this.log.info(`mcpkit dev: ${error instanceof Error ? error.message : String(error)}`),
      middleware: [failingWhileUnloaded(() => (this.current ? undefined : this.failure))],
    });
    if (first) this.install(first);
  }

  /**
   * Loads the module once; serves what loaded, or nothing until a change makes it load.
   * `module` is absolute; `shown` is how the terminal names it.
   */
  static async start(module: string, shown: string, log: DevLog): Promise<DevHost> {
    const started = Date.now();
    // TypeScript is compiled here, incrementally, so each child process starts on plain JavaScript.
    const compiler = isTypeScript(module) ? await createCompiler(module) : undefined;
    // The files the module imports: TypeScript's from the compiler, JavaScript's from esbuild.
    const graph = compiler ? undefined : await moduleGraph(module);
    let imports: ReadonlySet<string> | undefined;
    const load = async () => {
      const compiled = await compiler?.build();
      // A version that does not build keeps the last graph: the file being fixed is in it.
      const files = compiled?.inputs ?? (await graph?.files());
      if (files) imports = new Set(files.map(realLocation));
      try {
        return await startGeneration(compiled?.file ?? module, log.passthrough);
      } catch (error) {
        // The child was given the compiled file: what it said names the source instead. It
        // names the file as `mcpkit serve` does, relative to the folder when inside it (a
        // project's own node_modules/.cache), else absolute.
        if (compiled && error instanceof LoadFailure)
          throw new LoadFailure(
            error.message.replaceAll(compiled.file, shown).replaceAll(relative(process.cwd(), compiled.file), shown),
          );
        throw error;
      } finally {
        // Loaded by the child (or failed): the compiled file has done its work.
        if (compiled) rmSync(compiled.file, { force: true });
      }
    };
    const resources = {
      dispose: async () => {
        await compiler?.dispose();
        await graph?.dispose();
      },
    };
    const host = await DevHost.loading(shown, log, load, resources, started);
    host.imports = () => imports;
    return host;
  }

  /** A host loading generations with `load` (start's, or a test's). */
  static async loading(
    shown: string,
    log: DevLog,
    load: () => Promise<Generation>,
    resources?: { dispose(): Promise<void> },
    started = Date.now(),
  ): Promise<DevHost> {
    let failure: string | undefined;
    const first = await load().catch((error: unknown) => {
      reportFailure(log, shown, error, false);
      failure = failureLine(shown, error);
      return undefined;
    });
    const host = new DevHost(shown, load, resources, log, first, failure);
    if (first) log.info(`mcpkit dev: loaded ${describe(first)} in ${Date.now() - started} ms`);
    return host;
  }

  /**
   * Loads the module again; changes during a reload are read by one more reload after it.
   * Never rejects: whatever fails (loading, mounting, stopping the version replaced) is
   * said on the terminal, and the next change reloads as usual.
   */
  reload(why: string): Promise<void> {
    if (this.pending) return this.running;
    this.pending = true;
    this.running = this.running.then(async () => {
      this.pending = false;
      if (this.closed) return;
      try {
        await this.replace(why);
      } catch (error) {
        this.log.info(`mcpkit dev: reloading failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return this.running;
  }

  private async replace(why: string): Promise<void> {
    this.log.info(`mcpkit dev: ${why}, reloading…`);
    const started = Date.now();
    let next: Generation;
    try {
      next = await this.load();
    } catch (error) {
      const serving = this.current !== undefined;
      reportFailure(this.log, this.module, error, serving);
      this.tellClients(failureLine(this.module, error), serving);
      return;
    }
    if (this.closed) {
      await this.stop(next, "the version just loaded");
      return;
    }
    const old = this.current;
    this.install(next);
    this.log.info(`mcpkit dev: reloaded ${describe(next)} in ${Date.now() - started} ms`);
    if (old) await this.stop(old.generation, "the previous version");
  }

  /** Stops a generation's process; a failure is said, and the new version serves on. */
  private async stop(generation: Generation, which: string): Promise<void> {
    try {
      await generation.proxy.close();
    } catch (error) {
      this.log.info(
        `mcpkit dev: stopping ${which} failed (${error instanceof Error ? error.message : String(error)}); its process may still run`,
      );
    }
  }

  /** Mounts a generation in place of the current one, in one tick: one list_changed per list. */
  private install(generation: Generation): void {
    this.current?.mount.unmount();
    const mount = this.server.mount("", generation.proxy.server);
    const current = { generation, mount };
    this.current = current;
    this.failure = undefined;
    void generation.proxy.upstreamClosed.then((reason) => {
      if (this.current !== current || this.closed) return;
      // The module's process ended on its own (it crashed, or exited): nothing to serve.
      this.current.mount.unmount();
      this.current = undefined;
      const stopped = `${this.module} stopped${reason ? ` (${reason.message})` : ""}`;
      this.log.info(`mcpkit dev: ${stopped}; it starts again on the next change`);
      this.tellClients(stopped, false);
    });
  }

  /**
   * A version did not load, or stopped: each client in a session is told in a log message
   * (an error while nothing serves; a warning while the last good version does), and,
   * while nothing serves, its requests are answered with `why` (failure.ts).
   */
  private tellClients(why: string, serving: boolean): void {
    if (!serving) this.failure = why;
    const said = serving ? `${why}; the last version that loaded keeps serving` : why;
    for (const session of this.server.sessions) session.log(serving ? "warning" : "error", said, "mcpkit dev");
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    this.current?.mount.unmount();
    await this.current?.generation.proxy.close();
    this.current = undefined;
    await this.resources?.dispose();
    await this.server.close();
  }
}

function describe(generation: Generation): string {
  const { name, version } = generation.proxy.server.info;
  const { tools, resources, prompts } = generation.counts;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  return `${name} ${version} (${plural(tools, "tool")}, ${plural(resources, "resource")}, ${plural(prompts, "prompt")})`;
}

function reportFailure(log: DevLog, module: string, error: unknown, serving: boolean): void {
  const detail = error instanceof LoadFailure || error instanceof CompileError ? error.message : String(error);
  log.info(
    `mcpkit dev: ${module} did not load${serving ? "; the last version that loaded keeps serving" : ""}:\n` +
      `${detail.replace(/^/gm, "  ")}\n` +
      "mcpkit dev: fix it and save: it loads again on the next change",
  );
}
