import { describe, expect, it } from "vitest";
import type { LogEntry, NetworkEntry, ProtocolEntry } from "../contract/entries.js";
import type { ConnectionState, PageEvent } from "../contract/events.js";
import { initialState, LIMITS, reduce, type State } from "./state.js";

// The page's store, event by event: what each event of the backend changes in what the views show.

const connection: ConnectionState = {
  status: "connected",
  target: { kind: "http", url: "http://127.0.0.1:3000/mcp", headers: ["Authorization"] },
  targetLabel: "http://127.0.0.1:3000/mcp",
  allowSpawn: [],
  protocolChoice: "auto",
  roots: [],
  timeoutMs: 300_000,
  pingIntervalMs: 5000,
  era: "modern",
  revision: "2026-07-28",
};

const apply = (events: PageEvent[], from: State = initialState("server", "light")) =>
  events.reduce((state, event) => reduce(state, event, 1000), from);

const message = (seq: number): ProtocolEntry => ({ seq, at: seq, dir: "out", kind: "request", bytes: 2, message: {} });
const exchange = (seq: number, status?: number): NetworkEntry => ({
  seq,
  at: seq,
  method: "POST",
  url: "http://127.0.0.1:3000/mcp",
  requestHeaders: {},
  ...(status !== undefined && { status }),
});
const log = (data: string): LogEntry => ({ at: 1, level: "info", data });

describe("the page's state", () => {
  it("starts connecting, on the view the address names", () => {
    const state = initialState("tools", "dark");
    expect(state.connection.status).toBe("connecting");
    expect(state).toMatchObject({ view: "tools", theme: "dark", live: false });
  });

  it("takes a snapshot whole: the connection and everything recorded before the page opened", () => {
    const state = apply([
      {
        type: "snapshot",
        ...connection,
        protocol: [message(1)],
        network: [exchange(1)],
        logs: [log("hello")],
        asks: [],
        tasks: [{ taskId: "t1", status: "working" }],
        auth: [],
      },
    ]);
    expect(state.connection).toEqual(connection);
    expect(state.protocol).toEqual([message(1)]);
    expect(state.logs).toEqual([log("hello")]);
    expect(state.tasks).toEqual({ t1: { taskId: "t1", status: "working" } });
  });

  it("replaces the connection at each state event, and keeps the pings apart", () => {
    const state = apply([
      { type: "state", ...connection },
      { type: "pings", pings: { intervalMs: 5000, answered: 3, at: 9 } },
      { type: "state", ...connection, status: "disconnected", error: "The server stopped answering" },
    ]);
    expect(state.connection.status).toBe("disconnected");
    expect(state.connection.error).toBe("The server stopped answering");
    const pinged = apply([{ type: "pings", pings: { intervalMs: 5000, answered: 4 } }], state);
    expect(pinged.connection.pings?.answered).toBe(4);
  });

  it("updates an HTTP exchange in place as it changes, and adds a new one at the end", () => {
    const state = apply([
      { type: "http", entry: exchange(1) },
      { type: "http", entry: exchange(2) },
      { type: "http", entry: exchange(1, 200) },
    ]);
    expect(state.network.map((e) => [e.seq, e.status])).toEqual([
      [1, 200],
      [2, undefined],
    ]);
  });

  it("keeps the newest messages only, past the limit", () => {
    const events: PageEvent[] = Array.from({ length: LIMITS.protocol + 5 }, (_, i) => ({
      type: "message",
      entry: message(i),
    }));
    const state = apply(events);
    expect(state.protocol).toHaveLength(LIMITS.protocol);
    expect(state.protocol[0]?.seq).toBe(5);
  });

  it("merges a task's updates into what was known of it", () => {
    const state = apply([
      { type: "task", task: { taskId: "t1", status: "working", statusMessage: "started", createdAt: "x" } },
      { type: "task", task: { taskId: "t1", status: "completed" } },
    ]);
    expect(state.tasks.t1).toEqual({ taskId: "t1", status: "completed", statusMessage: "started", createdAt: "x" });
  });

  it("bumps the version of the list a notification says changed, and of every list when they went stale", () => {
    const state = apply([
      { type: "notification", method: "notifications/tools/list_changed", params: {} },
      { type: "notification", method: "notifications/resources/updated", params: { uri: "file:///a" } },
    ]);
    expect(state.listVersion).toEqual({ tools: 1, resources: 0, prompts: 0 });
    expect(state.notifications.map((n) => n.method)).toEqual([
      "notifications/tools/list_changed",
      "notifications/resources/updated",
    ]);
    expect(state.notifications[1]).toEqual({
      at: 1000,
      method: "notifications/resources/updated",
      params: { uri: "file:///a" },
    });
    expect(apply([{ type: "lists-stale" }], state).listVersion).toEqual({ tools: 2, resources: 1, prompts: 1 });
  });

  it("keeps each call's progress under its id", () => {
    const state = apply([
      { type: "progress", callId: "c1", progress: { progress: 1, total: 4 } },
      { type: "progress", callId: "c2", progress: { progress: 7 } },
      { type: "progress", callId: "c1", progress: { progress: 2, total: 4 } },
    ]);
    expect(state.progress).toEqual({ c1: { progress: 2, total: 4 }, c2: { progress: 7 } });
  });

  it("changes nothing it was not told to: the view, the theme, what the page learnt itself", () => {
    const before = { ...initialState("logs", "dark"), refused: undefined, live: true };
    const after = apply([{ type: "log", entry: log("x") }], before);
    expect(after).toEqual({ ...before, logs: [log("x")] });
  });
});
