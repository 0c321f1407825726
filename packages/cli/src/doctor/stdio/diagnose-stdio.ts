import { LATEST_LEGACY_REVISION } from "mcpkit";
import type { ServerDescription } from "mcpkit/client";
import type { Checks } from "../check.js";
import { doctorClient } from "../client.js";
import { connected, connectFailure, legacyClientsCheck, listChecks } from "../session-checks.js";
import type { DoctorTarget } from "../target.js";
import { within } from "../within.js";
import { observedStdio, type StdioObservation } from "./observed-stdio.js";
import {
  commandFailed,
  commandStarted,
  processExited,
  processRunning,
  stderrCheck,
  stdoutCheck,
} from "./stdio-checks.js";

/** How long a server that exited may take to let the rest of its stderr through. */
const STDERR_GRACE_MS = 500;

type StdioTarget = Extract<DoctorTarget, { kind: "stdio" }>;

/** The process ended, and not because the client closed it (a failed handshake does). */
const exitedOnItsOwn = (observation: StdioObservation) =>
  observation.transport.exit !== undefined && !observation.closedByClient;

/** Waits (briefly) for what an exited server still had in its stderr pipe. */
async function lastWords(observation: StdioObservation): Promise<void> {
  const stderr = observation.transport.stderr;
  if (!stderr || stderr.readableEnded || stderr.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, STDERR_GRACE_MS);
    stderr.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * A stdio server, step by step: the command starts, the process answers (and stays alive),
 * stdout carries only MCP, then the session's checks; its stderr is shown last.
 */
export async function diagnoseStdio(target: StdioTarget, timeoutMs: number, checks: Checks): Promise<void> {
  const words = [target.command, ...target.args].join(" ");
  const { transport, observation } = observedStdio(target);
  const client = doctorClient(timeoutMs);
  const started = Date.now();
  let description: ServerDescription;
  try {
    try {
      description = await within(client.connect(transport), timeoutMs);
    } catch (error) {
      if (observation.transport.pid === undefined) {
        checks.add(commandFailed(error, target.command));
        return;
      }
      checks.add(commandStarted(observation.transport, words));
      const exited = exitedOnItsOwn(observation);
      if (exited) {
        await lastWords(observation);
        checks.add(processExited(observation, false));
      } else
        for (const check of connectFailure(error, observation.firstMessageMs ?? Date.now() - started))
          checks.add(check);
      checks.add(stdoutCheck(observation));
      checks.add(stderrCheck(observation, exited));
      return;
    }
    checks.add(commandStarted(observation.transport, words));
    for (const check of connected(description, Date.now() - started)) checks.add(check);
    if (description.era === "modern") {
      const legacy = observedStdio(target);
      checks.add(
        await legacyClientsCheck(
          (c) => c.connect(legacy.transport),
          doctorClient(timeoutMs, LATEST_LEGACY_REVISION),
          timeoutMs,
        ),
      );
      await legacy.transport.close().catch(() => undefined);
    }
    await listChecks(client, checks);
    const exited = exitedOnItsOwn(observation);
    if (exited) {
      await lastWords(observation);
      checks.add(processExited(observation, true));
    } else checks.add(processRunning(observation));
    checks.add(stdoutCheck(observation));
    checks.add(stderrCheck(observation, exited));
  } finally {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}
