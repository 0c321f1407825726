import { useState } from "preact/hooks";
import { FORMAT_CHECKS, FORMAT_INPUT, jsonProblem, numberProblem, schemaFacts, stringProblem } from "./checks.js";
import type { Choice, Schema } from "./schema.js";
import { useValidity } from "./validity.js";

/** What every control of a field is given. */
export interface ControlProps {
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  id: string;
  required: boolean;
}

/** A field's description and the facts of its schema (checks.ts schemaFacts). */
export function Hint({ schema }: { schema: Schema }) {
  const facts = schemaFacts(schema);
  if (!schema.description && facts.length === 0) return null;
  return (
    <div class="hint">
      {schema.description}
      {facts.length > 0 && (
        <span class="facts">
          {schema.description ? " · " : ""}
          {facts.join(" · ")}
        </span>
      )}
    </div>
  );
}

export function ChoiceControl({ id, value, onChange, required, choices }: ControlProps & { choices: Choice[] }) {
  const check = useValidity<HTMLSelectElement>(undefined);
  const at = choices.findIndex((c) => c.value === value);
  return (
    <>
      <select
        id={id}
        ref={check.ref}
        onInvalid={check.onInvalid}
        value={at === -1 ? "" : String(at)}
        required={required}
        onChange={(e) => {
          const index = e.currentTarget.value;
          onChange(index === "" ? undefined : choices[Number(index)]?.value);
        }}
      >
        {(!required || at === -1) && <option value="">{required ? "Choose…" : "(unset)"}</option>}
        {choices.map((c, i) => (
          <option value={String(i)} key={i}>
            {c.title}
          </option>
        ))}
      </select>
      {check.message}
    </>
  );
}

export function BooleanControl({ id, value, onChange }: ControlProps) {
  return (
    <label class="check">
      <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span>{value === undefined ? "(unset)" : String(value)}</span>
    </label>
  );
}

export function NumberControl({
  schema,
  id,
  value,
  onChange,
  required,
  type,
}: ControlProps & { type: string | undefined }) {
  const check = useValidity<HTMLInputElement>(numberProblem(schema, value));
  // A bound given the draft-04 way (exclusiveMinimum: true) is inclusive for the browser, exclusive here.
  const low = schema.exclusiveMinimum === true ? undefined : schema.minimum;
  const high = schema.exclusiveMaximum === true ? undefined : schema.maximum;
  return (
    <>
      <input
        id={id}
        ref={check.ref}
        onInvalid={check.onInvalid}
        type="number"
        inputMode={type === "integer" ? "numeric" : "decimal"}
        step={type === "integer" ? 1 : "any"}
        min={low}
        max={high}
        required={required}
        value={value === undefined ? "" : String(value)}
        onInput={(e) => {
          const text = e.currentTarget.value;
          onChange(text === "" ? undefined : Number(text));
        }}
      />
      {check.message}
    </>
  );
}

export function StringControl({ schema, id, value, onChange, required }: ControlProps) {
  const text = value === undefined ? "" : String(value);
  const check = useValidity<HTMLInputElement & HTMLTextAreaElement>(stringProblem(schema, text));
  const format = typeof schema.format === "string" ? schema.format : "";
  const long = (schema.maxLength ?? 0) > 200 || format === "textarea";
  const example = FORMAT_CHECKS[format]?.example ?? schema.examples?.[0];
  const common = {
    id,
    ref: check.ref,
    onInvalid: check.onInvalid,
    required,
    value: text,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    placeholder: example === undefined ? undefined : String(example),
    onInput: (e: { currentTarget: { value: string } }) => {
      const next = e.currentTarget.value;
      onChange(next === "" && !required ? undefined : next);
    },
  };
  return (
    <>
      {long ? (
        <textarea rows={4} {...common} />
      ) : (
        <input type={(FORMAT_INPUT[format] ?? "text") as "text"} {...common} />
      )}
      {check.message}
    </>
  );
}

/** A value of a schema the form cannot draw: typed as JSON. */
export function JsonControl({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const problem = jsonProblem(text, false);
  const check = useValidity<HTMLInputElement>(problem);
  return (
    <>
      <input
        id={id}
        ref={check.ref}
        onInvalid={check.onInvalid}
        class={`mono ${problem ? "invalid" : ""}`}
        placeholder="JSON"
        value={text}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (next.trim() === "") onChange(undefined);
          else if (!jsonProblem(next, false)) onChange(JSON.parse(next));
        }}
      />
      {check.message}
    </>
  );
}
