import { useState } from "preact/hooks";
import { jsonProblem } from "./schema/checks.js";
import { ObjectFields } from "./schema/fields.js";
import { propertiesOf, resolve, type Schema, schemaOf } from "./schema/schema.js";
import { useValidity } from "./schema/validity.js";

export { argumentsOf, initialValue } from "./schema/schema.js";

/**
 * A form generated from a JSON Schema (a tool's inputSchema, an elicitation's
 * requestedSchema): strings with their formats, numbers, integers, booleans, enums (plain,
 * titled, legacy enumNames), arrays, nested objects, nullable fields, defaults, local
 * $refs, and a raw JSON mode for anything a form cannot say.
 *
 * What the schema demands is checked before the form is submitted: the browser checks
 * what HTML says (required, lengths, bounds, integers, email, URL); the rest (patterns,
 * time and date-time, exclusive bounds, JSON) is set as each control's custom validity
 * (schema/checks.ts, schema/validity.tsx), so a form that breaks it is not submitted, and
 * the message shows under the field. `value` is owned by the caller, so a form keeps what
 * was typed across renders.
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  idPrefix,
  raw: keptRaw,
  onRawChange,
}: {
  /** The server's schema, as JSON. */
  schema: unknown;
  value: unknown;
  onChange: (value: unknown) => void;
  idPrefix: string;
  /** The JSON mode's text (undefined: the form), when the caller keeps it across visits. */
  raw?: string | undefined;
  onRawChange?: (raw: string | undefined) => void;
}) {
  const [ownRaw, setOwnRaw] = useState<string | undefined>(undefined);
  const raw = onRawChange ? keptRaw : ownRaw;
  const setRaw = onRawChange ?? setOwnRaw;
  const root: Schema = schema === undefined ? { type: "object" } : schemaOf(schema);
  const resolved = resolve(root, root);
  const hasFields = propertiesOf(resolved).length > 0;
  const problem = raw === undefined ? undefined : jsonProblem(raw, true);
  const check = useValidity<HTMLTextAreaElement>(problem);
  return (
    <div class="schema-form">
      <fieldset class="mode" aria-label="Input mode">
        <button type="button" aria-pressed={raw === undefined} onClick={() => switchTo(false)}>
          Form
        </button>
        <button type="button" aria-pressed={raw !== undefined} onClick={() => switchTo(true)}>
          JSON
        </button>
      </fieldset>
      {raw !== undefined ? (
        <>
          <textarea
            id={`${idPrefix}-json`}
            ref={check.ref}
            onInvalid={check.onInvalid}
            class={`mono raw ${problem ? "invalid" : ""}`}
            rows={Math.min(20, Math.max(4, raw.split("\n").length + 1))}
            aria-label="Arguments as JSON"
            aria-invalid={problem !== undefined}
            aria-describedby={problem ? `${idPrefix}-json-problem` : undefined}
            value={raw}
            onInput={(e) => {
              const text = e.currentTarget.value;
              setRaw(text);
              if (!jsonProblem(text, true)) onChange(text.trim() ? JSON.parse(text) : {});
            }}
          />
          {/* Said as it is typed; the form is not submitted while it stands. */}
          {problem && (
            <p class="error" id={`${idPrefix}-json-problem`} data-testid="json-problem">
              {problem}
            </p>
          )}
        </>
      ) : hasFields ? (
        <ObjectFields schema={resolved} root={root} value={value} onChange={onChange} id={idPrefix} />
      ) : (
        <p class="hint">No arguments.</p>
      )}
    </div>
  );

  /** Back to the form only from valid JSON: the form shows the value the JSON says. */
  function switchTo(json: boolean) {
    if (json) setRaw(JSON.stringify(value ?? {}, null, 2));
    else if (!problem) setRaw(undefined);
  }
}
