import type { GetPromptResult, Prompt } from "mcpkit";
import { useState } from "preact/hooks";
import { call } from "../api.js";
import { useList } from "../lists.js";
import { CompletionInput } from "../parts/completion-input.js";
import { ContentBlock } from "../parts/content.js";
import { JsonView } from "../parts/json.js";
import { useKept } from "../store.js";

/** Prompts: arguments with completion as you type, and the messages the prompt renders. */
export function PromptsView() {
  const { items, error, hint, reload } = useList("prompts");
  const [selected, setSelected] = useKept<string | undefined>("prompts.selected", undefined);
  const prompt = items?.find((p) => p.name === selected) ?? items?.[0];
  return (
    <section class="view split" aria-labelledby="prompts-title">
      <div class="list-pane">
        <div class="pane-head">
          <h2 id="prompts-title">Prompts {items && <span class="count">{items.length}</span>}</h2>
          <button type="button" class="small" onClick={reload}>
            Refresh
          </button>
        </div>
        {error && <p class="error">{error}</p>}
        <ul class="items" aria-label="Prompts">
          {(items ?? []).map((p) => (
            <li key={p.name}>
              <button
                type="button"
                class="item"
                data-prompt={p.name}
                aria-current={p.name === prompt?.name}
                onClick={() => setSelected(p.name)}
              >
                <span class="item-name">{p.title ?? p.name}</span>
                {p.description && <span class="item-sub">{p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {prompt ? <PromptDetail prompt={prompt} key={prompt.name} /> : <p class="hint">{hint ?? "No prompts."}</p>}
      </div>
    </section>
  );
}

function PromptDetail({ prompt }: { prompt: Prompt }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<GetPromptResult>();
  const [error, setError] = useState<string>();
  const [raw, setRaw] = useState(false);
  return (
    <div>
      <h3>{prompt.title ?? prompt.name}</h3>
      {prompt.description && <p>{prompt.description}</p>}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            setResult(await call("prompts/get", { name: prompt.name, arguments: values }));
            setError(undefined);
          } catch (err) {
            setResult(undefined);
            setError((err as Error).message);
          }
        }}
      >
        {(prompt.arguments ?? []).map((arg) => (
          <div class="field" key={arg.name}>
            <div class="field-head">
              <label for={`pa-${arg.name}`}>
                {arg.title ?? arg.name}
                {arg.required && <span class="req">*</span>}
              </label>
            </div>
            <CompletionInput
              id={`pa-${arg.name}`}
              value={values[arg.name] ?? ""}
              required={arg.required === true}
              onChange={(value) => setValues({ ...values, [arg.name]: value })}
              complete={(partial) =>
                call("completion/complete", {
                  ref: { type: "ref/prompt", name: prompt.name },
                  argument: { name: arg.name, value: partial },
                  context: { arguments: values },
                }).then((r) => r.completion)
              }
            />
            {arg.description && <div class="hint">{arg.description}</div>}
          </div>
        ))}
        <div class="row actions">
          <button type="submit" class="primary">
            Get prompt
          </button>
        </div>
      </form>
      {error && <p class="error">{error}</p>}
      {result && (
        <div class="prompt-result">
          <div class="result-head">
            {result.description && <span>{result.description}</span>}
            <button type="button" class="link" aria-pressed={raw} onClick={() => setRaw(!raw)}>
              {raw ? "Rendered" : "JSON"}
            </button>
          </div>
          {raw ? (
            <JsonView value={result} />
          ) : (
            (Array.isArray(result.messages) ? result.messages : []).map((message, i) => (
              <div class={`message ${message.role}`} key={i}>
                <div class="role">{message.role}</div>
                {(Array.isArray(message.content) ? message.content : [message.content]).map((block, j) => (
                  <ContentBlock block={block} key={j} />
                ))}
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}
