import type { ContentBlock as Block, ElicitValue } from "mcpkit";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Ask, Reply } from "../../contract/entries.js";
import { call } from "../api.js";
import { useStore } from "../store.js";
import { ContentBlock } from "./content.js";
import { ExternalLink, externalHref } from "./external-link.js";
import { JsonView } from "./json.js";
import { initialValue, SchemaForm } from "./schema-form.js";

const answer = (ask: Ask, reply: Reply) => call("answer", { id: ask.id, reply });

type Elicitation = Extract<Ask, { method: "elicitation/create" }>;
type SamplingAsk = Extract<Ask, { method: "sampling/createMessage" }>;

/**
 * What the server asks of the person (client/elicitation, client/sampling), in a modal
 * dialog: a pushed request of a legacy server, or an input request of a 2026-07-28 round.
 * Escape cancels (elicitation) or rejects (sampling).
 */
export function AsksDialog() {
  const asks = useStore((s) => s.asks);
  const dialog = useRef<HTMLDialogElement>(null);
  const ask = asks[0];
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (ask && !d.open) d.showModal();
    if (!ask && d.open) d.close();
  }, [ask?.id]);
  return (
    <dialog
      ref={dialog}
      class="ask"
      aria-labelledby="ask-title"
      onCancel={(e) => {
        e.preventDefault();
        if (ask)
          answer(
            ask,
            ask.method === "elicitation/create"
              ? { result: { action: "cancel" } }
              : { refuse: "The person rejected the request" },
          );
      }}
    >
      {ask && (
        <div key={ask.id}>
          <div class="ask-via hint">
            {ask.via.kind === "input" ? `input request "${ask.via.key}" (2026-07-28 round)` : `request ${ask.via.key}`}
            {asks.length > 1 && ` · ${asks.length - 1} more waiting`}
          </div>
          {ask.method === "elicitation/create" ? (
            ask.params.mode === "url" ? (
              <UrlElicitation ask={ask} />
            ) : (
              <FormElicitation ask={ask} />
            )
          ) : (
            <Sampling ask={ask} />
          )}
        </div>
      )}
    </dialog>
  );
}

function FormElicitation({ ask }: { ask: Elicitation }) {
  const schema = "requestedSchema" in ask.params ? ask.params.requestedSchema : undefined;
  const [value, setValue] = useState<unknown>(initialValue(schema) ?? {});
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // The form's values, shaped by the requested schema (which allows only these kinds of value).
        answer(ask, { result: { action: "accept", content: (value ?? {}) as Record<string, ElicitValue> } });
      }}
    >
      <h2 id="ask-title">The server asks</h2>
      <p class="ask-message">{ask.params.message}</p>
      <SchemaForm schema={schema} value={value} onChange={setValue} idPrefix={`ask-${ask.id}`} />
      <div class="row actions">
        <button type="submit" class="primary">
          Accept
        </button>
        <button type="button" onClick={() => answer(ask, { result: { action: "decline" } })}>
          Decline
        </button>
        <button type="button" onClick={() => answer(ask, { result: { action: "cancel" } })}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function UrlElicitation({ ask }: { ask: Elicitation }) {
  const url = "url" in ask.params ? String(ask.params.url) : "";
  const safe = externalHref(url) !== undefined;
  return (
    <div>
      <h2 id="ask-title">The server sends you to a page</h2>
      <p class="ask-message">{ask.params.message}</p>
      <p class="mono url-box">{url}</p>
      <p class="hint">Check the address before you open it: it comes from the server.</p>
      <div class="row actions">
        {safe && (
          <ExternalLink class="button primary" href={url}>
            Open the page
          </ExternalLink>
        )}
        <button type="button" onClick={() => answer(ask, { result: { action: "accept" } })}>
          Done
        </button>
        <button type="button" onClick={() => answer(ask, { result: { action: "decline" } })}>
          Decline
        </button>
        <button type="button" onClick={() => answer(ask, { result: { action: "cancel" } })}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The person plays the model: reads the messages and writes the reply. */
function Sampling({ ask }: { ask: SamplingAsk }) {
  const params = ask.params;
  const [text, setText] = useState("");
  const [model, setModel] = useState("inspector-human");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        answer(ask, {
          result: { role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" },
        });
      }}
    >
      <h2 id="ask-title">The server asks for a model's reply</h2>
      {params.systemPrompt && (
        <div class="message system">
          <div class="role">system</div>
          <pre class="text">{params.systemPrompt}</pre>
        </div>
      )}
      {(Array.isArray(params.messages) ? params.messages : []).map((message, i) => (
        <div class={`message ${message.role}`} key={i}>
          <div class="role">{message.role}</div>
          {/* A tool use or result is not a content block of a tool's: shown as JSON by ContentBlock. */}
          {(Array.isArray(message.content) ? message.content : [message.content]).map((block, j) => (
            <ContentBlock block={block as Block} key={j} />
          ))}
        </div>
      ))}
      <div class="hint">
        maxTokens {params.maxTokens}
        {params.tools && ` · offers ${params.tools.length} tool(s)`}
        {params.modelPreferences && " · has model preferences"}
      </div>
      {params.tools && (
        <details>
          <summary>Tools offered</summary>
          <JsonView value={params.tools} />
        </details>
      )}
      <div class="field">
        <label for={`reply-${ask.id}`}>Reply</label>
        <textarea
          id={`reply-${ask.id}`}
          rows={4}
          required
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`model-${ask.id}`}>Model name</label>
        <input id={`model-${ask.id}`} value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      </div>
      <div class="row actions">
        <button type="submit" class="primary">
          Send reply
        </button>
        <button type="button" onClick={() => answer(ask, { refuse: "The person rejected the request" })}>
          Reject
        </button>
      </div>
    </form>
  );
}
