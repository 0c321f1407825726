import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { blankNonCode, type Finding, findInText, findSilentFailures } from "./silent-failures.js";

// Every fire-and-forget promise in the packages either cannot reject or reports to an
// onError; no failure is swallowed without a stated reason. A `void` expression, a catch
// block with no statement (a comment is not one) and a `.catch` whose handler does nothing
// must be fixed (report the failure) or listed here with why it is right.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SOURCES = ["packages/mcpkit/src", "packages/servers/src", "packages/cli/src", "packages/redis/src"];

interface Allowed {
  /** A path under the repository, or "*" for an idiom allowed anywhere. */
  file: string;
  /** A piece of the flagged line's code. */
  code: string;
  reason: string;
}

const RELEASE = "releasing a body, stream or handle we are done with: its failure changes nothing and concerns no one";
const QUEUE =
  "a queue's tail: the caller awaits `next` and gets its failure; the queue only has to go on after a failure";
const NOT_A_PROMISE = "the value is not a promise (a boolean or a Map): `void` only discards it";
const FALLBACK = "the failure is the answer: a file that cannot be stat'ed does not exist for the caller";

const ALLOWED: Allowed[] = [
  // Idioms, anywhere.
  { file: "*", code: ".cancel().catch(() => {})", reason: RELEASE },
  { file: "*", code: ".close().catch(() => undefined)", reason: RELEASE },
  { file: "*", code: "void process.stdout.write(", reason: NOT_A_PROMISE },
  { file: "*", code: "void process.stderr.write(", reason: NOT_A_PROMISE },
  { file: "*", code: "stat(", reason: FALLBACK },
  { file: "*", code: "queue = ", reason: QUEUE },
  { file: "*", code: "tail = result.catch", reason: QUEUE },
  // One by one.
  {
    file: "packages/mcpkit/src/server/eras/modern/serve.ts",
    code: "work.catch(() => {})",
    reason: "an abandoned round's handler: the next round replays it and answers; this outcome belongs to no request",
  },
  {
    file: "packages/mcpkit/src/client/eras/modern-listen.ts",
    code: "ended.catch(() => {})",
    reason: "marks as handled a rejection the race below observes",
  },
  {
    file: "packages/mcpkit/src/client/eras/modern-listen.ts",
    code: "void closed.then(() => this.open.delete(id))",
    reason: "`closed` never rejects (both outcomes are mapped) and Map.delete does not throw",
  },
  {
    file: "packages/mcpkit/src/client/eras/legacy-listen.ts",
    code: "await this.release(uri).catch(() => {})",
    reason: "undoing subscriptions on the way out: the error that matters is rethrown, and a gone server has none left",
  },
  {
    file: "packages/mcpkit/src/client/eras/legacy-listen.ts",
    code: "() => void close()",
    reason: "close() cannot reject: its releases are caught and it resolves the subscription's end",
  },
  {
    file: "packages/mcpkit/src/client/eras/modern-era.ts",
    code: "await tools.get().catch(() => undefined)",
    reason: "listing tools only finds header parameters; the call itself then reports what is wrong",
  },
  {
    file: "packages/mcpkit/src/client/tasks.ts",
    code: ".catch(() => undefined)",
    reason: "status notifications only wake a poll early: without them the task is still polled",
  },
  {
    file: "packages/mcpkit/src/otel/server-telemetry.ts",
    code: "void session.closed.then(",
    reason: "`closed` never rejects; the callback ends a span",
  },
  {
    file: "packages/mcpkit/src/otel/client-telemetry.ts",
    code: "void session.closed.then(",
    reason: "`closed` never rejects; the callback ends a span",
  },
  {
    file: "packages/mcpkit/src/transports/memory/linked-pair.ts",
    code: "void peer?.close()",
    reason: "MemoryTransport.close cannot reject",
  },
  {
    file: "packages/mcpkit/src/transports/http/client/http-errors.ts",
    code: "} catch {",
    reason: "a body that is not JSON: its text is reported instead",
  },
  {
    file: "packages/mcpkit/src/transports/http/sse.ts",
    code: "} catch {",
    reason: "closing a stream the client already cancelled",
  },
  {
    file: "packages/mcpkit/src/transports/stdio/client-transport.ts",
    code: "} catch {",
    reason: "ESRCH: the process group to signal is gone already",
  },
  {
    file: "packages/mcpkit/src/transports/streamable-http/client/transport.ts",
    code: "} catch {",
    reason: "DELETE of a session on close: a server that is gone ended it already",
  },
  {
    file: "packages/mcpkit/src/auth/client/loopback.ts",
    code: "} catch {",
    reason: "no browser to open: the printed URL is the way",
  },
  {
    file: "packages/cli/src/commands/call/dpop-key.ts",
    code: "await unlink(temp).catch(() => undefined)",
    reason: "the temporary file, linked into place or not: the key file in place is what the caller gets",
  },
  {
    file: "packages/cli/src/commands/call/arguments.ts",
    code: "} catch {",
    reason: "a value that is not JSON is taken as a string",
  },
  {
    file: "packages/servers/src/github/pagination.ts",
    code: "} catch {",
    reason: "a Link header part that is not a URL names no page",
  },
  {
    file: "packages/servers/src/workspace/prompts.ts",
    code: "} catch {",
    reason: "a repository the client may not see, or where git fails, is skipped for the next",
  },
  {
    file: "packages/servers/src/workspace/roots/client-roots.ts",
    code: "} catch {",
    reason: "a root that is no local directory grants nothing",
  },
  {
    file: "packages/servers/src/workspace/files/watch.ts",
    code: "void addTree(path)",
    reason: "addTree cannot reject: add() and the directory walk catch their own file system errors",
  },
  {
    file: "packages/servers/src/workspace/git/convention.ts",
    code: "return void bySession.set(",
    reason: NOT_A_PROMISE,
  },
  {
    file: "packages/servers/src/workspace/sqlite/engine.ts",
    code: "ready.catch(() => undefined)",
    reason: "the request waiting for the start gets its failure; this only marks it handled",
  },
  {
    file: "packages/servers/src/github/sign-in.ts",
    code: "done.catch(() => {})",
    reason: "the sign-in's outcome is awaited by whoever asked; this only marks it handled meanwhile",
  },
  {
    file: "packages/cli/src/files/replace-file.ts",
    code: "} catch {",
    reason: "removing the temporary file after a failed write: the write's own error is rethrown just after",
  },
  {
    file: "packages/cli/src/inspector/server.ts",
    code: "void session.connect()",
    reason: "connect() catches its own failure and shows it in the page as the connection's status",
  },
  {
    file: "packages/cli/src/inspector/ops/features.ts",
    code: "await task.cancel().catch(() => undefined)",
    reason: "cancelling the task of a call the page cancelled: the call's own error is rethrown just after",
  },
  {
    file: "packages/mcpkit/src/server/eras/legacy/session.ts",
    code: "void this.stopWatch(stop)",
    reason: "stopWatch catches a watch that fails to stop and reports it to onError",
  },
  {
    file: "packages/mcpkit/src/server/eras/legacy/session.ts",
    code: "void this.afterReload(this.reload, uri, key)",
    reason: "afterReload awaits a promise that never rejects and reports what delivering throws to onError",
  },
  {
    file: "packages/mcpkit/src/server/eras/legacy/session.ts",
    code: "void reload.then(",
    reason: "reload never rejects (both outcomes map to undefined), and clearing a field cannot throw",
  },
  {
    file: "packages/mcpkit/src/compose/entries.ts",
    code: ".catch(() => {})",
    reason: "cancelling the upstream task of a call the caller cancelled: the call's own outcome is what it gets",
  },
  {
    file: "packages/mcpkit/src/compose/mirror.ts",
    code: ".catch(() => {})",
    reason:
      "a queue: the next sync runs after the current one whatever its outcome; the current one's caller gets its failure",
  },
  {
    file: "packages/mcpkit/src/compose/proxy.ts",
    code: "void state.sessions?.open(session)",
    reason: "open() reports a connection that fails to open (onError) and closes the session",
  },
  {
    file: "packages/mcpkit/src/compose/upstream-connections.ts",
    code: "void session.close()",
    reason:
      "the session whose upstream connection failed (already reported): close() settles once its transport is closed",
  },
  {
    file: "packages/mcpkit/src/compose/upstream-connections.ts",
    code: "opening.catch(() => undefined)",
    reason: "a connection that failed to open has nothing to close; open() reported its failure",
  },
  {
    file: "packages/cli/src/commands/bundle/introspect.ts",
    code: "} catch {",
    reason: "a prompt that placeholder arguments cannot render is described instead",
  },
  {
    file: "packages/cli/src/commands/dev/host.ts",
    code: "void generation.proxy.upstreamClosed.then(",
    reason: "`upstreamClosed` never rejects; the callback unmounts and logs",
  },
  {
    file: "packages/cli/src/commands/dev/index.ts",
    code: "void host.reload(",
    reason:
      "reload never rejects: a module that fails to load, a failed mount and a generation that fails to stop are each said on stderr (test/workflow/dev-reload-failures.test.ts)",
  },
];

const allowedFor = (f: Finding) =>
  ALLOWED.find((a) => (a.file === "*" || a.file === f.file) && f.code.includes(a.code));

describe("silent failures in packages/*/src", () => {
  const findings = findSilentFailures(ROOT, SOURCES);

  it("has none but those listed with a reason", () => {
    const unexplained = findings.filter((f) => !allowedFor(f)).map((f) => `${f.file}:${f.line} ${f.kind}: ${f.code}`);
    expect(unexplained, "report the failure (onError), or list it in ALLOWED with why it is right").toEqual([]);
  });

  it("lists nothing that is no longer there", () => {
    const stale = ALLOWED.filter((a) => !findings.some((f) => allowedFor(f) === a)).map((a) => `${a.file}: ${a.code}`);
    expect(stale).toEqual([]);
  });
});

describe("the scanner", () => {
  const scan = (code: string) => {
    const kinds: string[] = [];
    const blanked = blankNonCode(code);
    if (/(?<![\w$.])void\s+(?=[\w$(!])/.test(blanked)) kinds.push("void");
    if (/\bcatch\s*(?:\([^)]*\))?\s*\{\s*\}/.test(blanked)) kinds.push("empty catch");
    return kinds;
  };

  it("passes a void promise whose chain ends in a .catch that reports, and no other", () => {
    const voids = (code: string) => findInText(code).filter((f) => f.kind === "void").length;
    expect(voids("void publish().catch(onError);")).toBe(0);
    expect(voids("void publish()\n  .then(next)\n  .catch((e) => report(e));")).toBe(0);
    expect(voids("void publish().catch(() => {});")).toBe(1);
    expect(voids("void publish().catch(onError).then(more);")).toBe(1);
    expect(voids("f(() => void publish());")).toBe(1);
  });

  it("finds a void promise and an empty catch, a commented one included", () => {
    expect(scan("void this.events.publish(e);")).toEqual(["void"]);
    expect(scan("try { peer.notify(m) } catch {\n  // The session is gone.\n}")).toEqual(["empty catch"]);
  });

  it("ignores the type void, and code words inside strings, templates, comments and regular expressions", () => {
    expect(scan("function f(): void {}\nconst p: Promise<void> = x;")).toEqual([]);
    expect(scan('const s = "void x() catch {}"; // void y()')).toEqual([]);
    const template = ["const t = `void $", "{a} catch {}`; const r = /void x/;"].join("");
    expect(scan(template)).toEqual([]);
  });
});
