import { useState } from "preact/hooks";
import { call } from "../api.js";
import { ConfigExport } from "../parts/config-export.js";
import { ConnectionPanel } from "../parts/connection-panel.js";
import { ExternalLink } from "../parts/external-link.js";
import { GatewayHealth } from "../parts/gateway-health.js";
import { JsonView } from "../parts/json.js";
import { Markdown } from "../parts/markdown.js";
import { useStore } from "../store.js";
import { TRANSPORT_TEXT } from "../words.js";

/** Server info, the negotiated revision and era, a gateway's upstreams, capabilities both ways, and reconnecting. */
export function ServerView() {
  const connection = useStore((s) => s.connection);
  const description = connection.description;
  const info = description?.serverInfo;
  const [ping, setPing] = useState<string>();
  return (
    <section class="view" aria-labelledby="server-title">
      <h2 id="server-title">Server</h2>
      {/* Remade when the target is known or changes, so its fields start from it. */}
      <ConnectionPanel
        connection={connection}
        key={`${connection.targetLabel}|${connection.protocolChoice}|${connection.target.kind === "http" ? connection.target.headers.join(",") : ""}|${connection.timeoutMs}|${connection.pingIntervalMs}`}
      />
      <ConfigExport />
      {connection.status === "connected" && (
        <>
          <div class="cards">
            <div class="card">
              <h3>{info?.title ?? info?.name}</h3>
              <dl class="facts-list">
                <dt>Name</dt>
                <dd class="mono">{info?.name}</dd>
                <dt>Version</dt>
                <dd class="mono">{info?.version}</dd>
                {info?.description && (
                  <>
                    <dt>Description</dt>
                    <dd>{info.description}</dd>
                  </>
                )}
                {info?.websiteUrl && (
                  <>
                    <dt>Website</dt>
                    <dd>
                      <ExternalLink href={info.websiteUrl}>{info.websiteUrl}</ExternalLink>
                    </dd>
                  </>
                )}
              </dl>
            </div>
            <div class="card">
              <h3>Connection</h3>
              <dl class="facts-list">
                <dt>Era</dt>
                <dd>
                  <span class={`era ${connection.era}`}>{connection.era}</span>
                </dd>
                <dt>Revision</dt>
                <dd class="mono" data-testid="revision">
                  {connection.revision}
                </dd>
                <dt>Transport</dt>
                <dd data-testid="transport-detail">{connection.transport && TRANSPORT_TEXT[connection.transport]}</dd>
                {connection.pid !== undefined && (
                  <>
                    <dt>Process</dt>
                    <dd class="mono" data-testid="pid">
                      {connection.pid}
                    </dd>
                  </>
                )}
                {connection.sessionId && (
                  <>
                    <dt>Session</dt>
                    <dd class="mono" data-testid="session-id">
                      {connection.sessionId}
                    </dd>
                  </>
                )}
                {connection.pings && (
                  <>
                    <dt>Pings</dt>
                    <dd title="Sent while this page is open, to notice that the server went away">
                      every {connection.pings.intervalMs / 1000} s ·{" "}
                      <span data-testid="pings-answered">{connection.pings.answered}</span> answered
                      {connection.pings.at !== undefined &&
                        `, the last at ${new Date(connection.pings.at).toLocaleTimeString([], { hour12: false })}`}
                    </dd>
                  </>
                )}
                {description?.discover?.supportedVersions && (
                  <>
                    <dt>Server speaks</dt>
                    <dd class="mono">{description.discover.supportedVersions.join(", ")}</dd>
                  </>
                )}
              </dl>
              <button
                type="button"
                onClick={async () => {
                  try {
                    setPing(`${(await call("ping")).ms} ms`);
                  } catch (e) {
                    setPing((e as Error).message);
                  }
                }}
              >
                Ping
              </button>{" "}
              {ping && <span class="hint">{ping}</span>}
            </div>
          </div>
          {connection.target.kind === "http" && <GatewayHealth key={connection.targetLabel} />}
          {description?.instructions && (
            <div class="card">
              <h3>Instructions</h3>
              <Markdown text={description.instructions} />
            </div>
          )}
          <div class="cards">
            <div class="card">
              <h3>Server capabilities</h3>
              <JsonView value={description?.capabilities ?? {}} label="server capabilities" />
            </div>
            <div class="card">
              <h3>Client capabilities (declared by the inspector)</h3>
              <JsonView value={connection.clientCapabilities ?? {}} label="client capabilities" />
            </div>
          </div>
        </>
      )}
    </section>
  );
}
