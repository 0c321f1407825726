import { useState } from "preact/hooks";
import type { Download } from "../../contract/operations.js";
import { call } from "../api.js";

/** How long the file's address outlives the click that saves it (a browser may read it a little later). */
const KEEP_URL_MS = 60_000;

/** Hands a file to the browser to save, as a download: nothing is written by the inspector. */
function save(file: Download): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}

const WHAT = {
  "export/test-file": "Save as test file",
  "export/recording": "Save as recording",
} as const;

/**
 * The session as files of mcpkit's testing tools, downloaded by the browser: the requests
 * made as a test file (`mcpkit test`), the last connection as a recording (`mcpkit replay`).
 * What each file leaves out (secrets, by name) is said under the buttons.
 */
export function SaveSession() {
  const [said, setSaid] = useState<{ notes: string[]; error?: string }>();
  const run = (op: keyof typeof WHAT) => {
    setSaid(undefined);
    call(op).then(
      (file) => {
        save(file);
        setSaid({ notes: [`Saved ${file.filename}.`, ...file.notes] });
      },
      (error: Error) => setSaid({ notes: [], error: error.message }),
    );
  };
  return (
    <>
      {(Object.keys(WHAT) as (keyof typeof WHAT)[]).map((op) => (
        <button
          key={op}
          type="button"
          class="small"
          title={
            op === "export/test-file"
              ? "The calls, reads, prompts and completions made, as a test file for mcpkit test"
              : "This connection's messages, as a recording for mcpkit replay"
          }
          onClick={() => run(op)}
        >
          {WHAT[op]}
        </button>
      ))}
      {said && (
        <div class="save-notes" data-testid="save-notes" role="status">
          {said.error ? (
            <p class="error">{said.error}</p>
          ) : (
            said.notes.map((note) => (
              <p key={note} class="hint">
                {note}
              </p>
            ))
          )}
        </div>
      )}
    </>
  );
}
