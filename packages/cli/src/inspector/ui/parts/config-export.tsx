import { useState } from "preact/hooks";
import type { ClientConfig, ConfigFormat } from "../../contract/operations.js";
import { call } from "../api.js";
import { JsonView } from "./json.js";

const FORMATS: { format: ConfigFormat; label: string }[] = [
  { format: "mcp.json", label: "mcp.json" },
  { format: "claude-desktop", label: "Claude Desktop" },
  { format: "vscode", label: "VS Code" },
];

/**
 * "Copy as client config": the server this page is connected to, as another client's
 * configuration (../../client-config.ts). Secrets are left out: each header or variable is
 * a placeholder, and the list under it says what to put in its place.
 */
export function ConfigExport() {
  const [config, setConfig] = useState<ClientConfig>();
  const [error, setError] = useState<string>();
  return (
    <div class="card" data-testid="config-export">
      <h3>Copy as client config</h3>
      <div class="row">
        {FORMATS.map(({ format, label }) => (
          <button
            type="button"
            key={format}
            aria-pressed={config?.format === format}
            onClick={async () => {
              try {
                setConfig(await call("config/export", { format }));
                setError(undefined);
              } catch (e) {
                setError((e as Error).message);
              }
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {error && <p class="error">{error}</p>}
      {config && (
        <>
          <p class="hint">For {config.file}.</p>
          <JsonView value={config.text} label={`${config.format} configuration`} compact />
          {config.placeholders.length > 0 && (
            <>
              <p class="hint">Secrets are left out. Put your own in place of:</p>
              <ul class="placeholders">
                {config.placeholders.map((p) => (
                  <li key={p.placeholder}>
                    <span class="mono">{p.placeholder}</span>: {p.for}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </div>
  );
}
