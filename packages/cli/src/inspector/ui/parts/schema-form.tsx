import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { JsonObject } from "../types.js";

/**
 * A form generated from a JSON Schema (a tool's inputSchema, an elicitation's
 * requestedSchema): strings with their formats, numbers, integers, booleans, enums (plain,
 * titled, legacy enumNames), arrays, nested objects, nullable fields, defaults, local
 * $refs, and a raw JSON mode for anything a form cannot say.
 */

type Schema = JsonObject;
type Change = (value: unknown) => void;

const FORMAT_INPUT: Record<string, "date" | "time" | "email" | "url"> = {
  date: "date",
  time: "time",
  email: "email",
  uri: "url",
  url: "url",
};

/** Follows a local $ref (#/$defs/x, #/definitions/x); allOf members are merged. */
export function resolve(schema: Schema | undefined, root: Schema, depth = 0): Schema {
  if (!schema || typeof schema !== "object") return {};
  let s = schema;
  if (typeof s.$ref === "string" && s.$ref.startsWith("#/") && depth < 16) {
    let target: unknown = root;
    for (const part of s.$ref.slice(2).split("/"))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    const { $ref: _r, ...rest } = s;
    s = { ...resolve(target as Schema, root, depth + 1), ...rest };
  }
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { ...s };
    delete merged.allOf;
    for (const part of s.allOf) {
      const r = resolve(part, root, depth + 1);
      merged.properties = { ...merged.properties, ...r.properties };
      merged.required = [...(merged.required ?? []), ...(r.required ?? [])];
      merged.type ??= r.type;
    }
    return merged;
  }
  return s;
}

/** The non-null type of a schema, and whether null is allowed too. */
function typeOf(schema: Schema): { type: string | undefined; nullable: boolean } {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t: string) => t !== "null");
    return { type: types.length === 1 ? types[0] : undefined, nullable: types.length < schema.type.length };
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants) && variants.some((v) => v.type === "null")) {
    const rest = variants.filter((v) => v.type !== "null");
    if (rest.length === 1) return { ...typeOf(rest[0] as Schema), nullable: true };
  }
  if (schema.type === undefined) {
    if (schema.properties) return { type: "object", nullable: !!schema.nullable };
    if (schema.enum) return { type: "string", nullable: false };
  }
  return { type: schema.type, nullable: !!schema.nullable };
}

/** The choices of an enum field, with their titles. */
function choicesOf(schema: Schema): { value: unknown; title: string }[] | undefined {
  if (Array.isArray(schema.enum))
    return schema.enum.map((value: unknown, i: number) => ({
      value,
      title: String(schema.enumNames?.[i] ?? value),
    }));
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0 && variants.every((v) => "const" in v))
    return variants.map((v) => ({ value: v.const, title: String(v.title ?? v.const) }));
  return undefined;
}

/** The value a form starts with: defaults, and required objects filled in. */
export function initialValue(schema: Schema | undefined, root: Schema = schema ?? {}): unknown {
  const s = resolve(schema, root);
  if (s.default !== undefined) return structuredClone(s.default);
  if (typeOf(s).type === "object" && s.properties) {
    const value: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(s.properties as Record<string, Schema>)) {
      const resolved = resolve(prop, root);
      const start =
        resolved.default !== undefined || (s.required ?? []).includes(name) ? initialValue(prop, root) : undefined;
      if (start !== undefined) value[name] = start;
    }
    return value;
  }
  return undefined;
}

function Hint({ schema }: { schema: Schema }) {
  const facts = [
    schema.format && `format: ${schema.format}`,
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.minLength !== undefined && `at least ${schema.minLength} characters`,
    schema.maxLength !== undefined && `at most ${schema.maxLength} characters`,
    schema.pattern && `pattern: ${schema.pattern}`,
  ].filter(Boolean);
  if (!schema.description && facts.length === 0) return null;
  return (
    <div class="hint">
      {schema.description}
      {facts.length > 0 && <span class="facts"> {facts.join(" · ")}</span>}
    </div>
  );
}

interface FieldProps {
  schema: Schema;
  root: Schema;
  value: unknown;
  onChange: Change;
  id: string;
  label: string;
  required: boolean;
}

/** One field, by its schema's type. */
function Field(props: FieldProps) {
  const { root, value, onChange, id, label, required } = props;
  const schema = resolve(props.schema, root);
  const { type, nullable } = typeOf(schema);
  const title = schema.title ?? label;
  const isNull = value === null;
  const head = (
    <div class="field-head">
      <label for={id}>
        {title}
        {required && (
          <span class="req" title="required">
            *
          </span>
        )}
      </label>
      {type && <span class="type">{type}</span>}
      {nullable && (
        <label class="null-toggle">
          <input
            type="checkbox"
            checked={isNull}
            onChange={(e) => onChange(e.currentTarget.checked ? null : initialValue(schema, root))}
          />{" "}
          null
        </label>
      )}
    </div>
  );
  let input: ComponentChildren;
  const choices = choicesOf(schema);
  if (isNull) input = <input id={id} disabled value="null" />;
  else if (choices && type !== "array") {
    const at = choices.findIndex((c) => c.value === value);
    input = (
      <select
        id={id}
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
    );
  } else if (type === "boolean") {
    input = (
      <label class="check">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
        <span>{value === undefined ? "(unset)" : String(value)}</span>
      </label>
    );
  } else if (type === "number" || type === "integer") {
    input = (
      <input
        id={id}
        type="number"
        step={type === "integer" ? 1 : "any"}
        min={schema.minimum ?? schema.exclusiveMinimum}
        max={schema.maximum ?? schema.exclusiveMaximum}
        required={required}
        value={value === undefined ? "" : String(value)}
        onInput={(e) => {
          const text = e.currentTarget.value;
          onChange(text === "" ? undefined : Number(text));
        }}
      />
    );
  } else if (type === "string") {
    const long = (schema.maxLength ?? 0) > 200 || schema.format === "textarea";
    const common = {
      id,
      required,
      value: value === undefined ? "" : String(value),
      minLength: schema.minLength,
      maxLength: schema.maxLength,
      placeholder: schema.format === "date-time" ? "2026-01-31T12:00:00Z" : schema.examples?.[0],
      onInput: (e: { currentTarget: { value: string } }) => {
        const text = e.currentTarget.value;
        onChange(text === "" && !required ? undefined : text);
      },
    };
    input = long ? (
      <textarea rows={4} {...common} />
    ) : (
      <input type={(FORMAT_INPUT[schema.format] ?? "text") as "text"} pattern={schema.pattern} {...common} />
    );
  } else if (type === "array") {
    input = <ArrayField {...props} schema={schema} />;
  } else if (type === "object" && schema.properties) {
    return (
      <fieldset class="object">
        <legend>
          {title}
          {required && <span class="req">*</span>}
          {nullable && (
            <label class="null-toggle">
              <input
                type="checkbox"
                checked={isNull}
                onChange={(e) => onChange(e.currentTarget.checked ? null : initialValue(schema, root))}
              />{" "}
              null
            </label>
          )}
        </legend>
        <Hint schema={schema} />
        {!isNull && <ObjectFields schema={schema} root={root} value={value} onChange={onChange} id={id} />}
      </fieldset>
    );
  } else {
    input = <JsonField id={id} value={value} onChange={onChange} />;
  }
  return (
    <div class="field">
      {head}
      {input}
      <Hint schema={schema} />
    </div>
  );
}

function ObjectFields({
  schema,
  root,
  value,
  onChange,
  id,
}: {
  schema: Schema;
  root: Schema;
  value: unknown;
  onChange: Change;
  id: string;
}) {
  const object = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const required: string[] = schema.required ?? [];
  return (
    <>
      {Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, prop]) => (
        <Field
          key={name}
          schema={prop}
          root={root}
          id={`${id}.${name}`}
          label={name}
          required={required.includes(name)}
          value={object[name]}
          onChange={(next) => {
            const copy = { ...object };
            if (next === undefined) delete copy[name];
            else copy[name] = next;
            onChange(copy);
          }}
        />
      ))}
    </>
  );
}

function ArrayField({ schema, root, value, onChange, id }: FieldProps) {
  const items = resolve(schema.items, root);
  const list = Array.isArray(value) ? value : [];
  const choices = choicesOf(items);
  if (choices) {
    return (
      <fieldset class="multi" id={id}>
        {choices.map((c, i) => (
          <label class="check" key={i}>
            <input
              type="checkbox"
              checked={list.includes(c.value)}
              onChange={(e) =>
                onChange(
                  e.currentTarget.checked
                    ? choices.filter((x) => x.value === c.value || list.includes(x.value)).map((x) => x.value)
                    : list.filter((v) => v !== c.value),
                )
              }
            />
            <span>{c.title}</span>
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <div class="array" id={id}>
      {list.map((item, i) => (
        <div class="array-item" key={i}>
          <Field
            schema={items}
            root={root}
            id={`${id}.${i}`}
            label={`item ${i + 1}`}
            required={true}
            value={item}
            onChange={(next) => onChange(list.map((v, j) => (j === i ? next : v)))}
          />
          <button
            type="button"
            class="small"
            aria-label={`Remove item ${i + 1}`}
            onClick={() => onChange(list.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="small" onClick={() => onChange([...list, initialValue(items, root)])}>
        Add item
      </button>
    </div>
  );
}

/** A value of a schema the form cannot draw: typed as JSON. */
function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange: Change }) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [bad, setBad] = useState(false);
  return (
    <input
      id={id}
      class={`mono ${bad ? "invalid" : ""}`}
      placeholder="JSON"
      value={text}
      onInput={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        if (next.trim() === "") {
          setBad(false);
          onChange(undefined);
          return;
        }
        try {
          onChange(JSON.parse(next));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

/**
 * The whole form for an object schema, with a Form/JSON switch. `value` is owned by the
 * caller, so a form keeps what was typed across renders.
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  idPrefix,
}: {
  schema: Schema | undefined;
  value: unknown;
  onChange: Change;
  idPrefix: string;
}) {
  const [raw, setRaw] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const root = schema ?? { type: "object" };
  const resolved = resolve(root, root);
  const hasFields = Object.keys(resolved.properties ?? {}).length > 0;
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
            class="mono raw"
            rows={Math.min(20, Math.max(4, raw.split("\n").length + 1))}
            aria-label="Arguments as JSON"
            value={raw}
            onInput={(e) => {
              const text = e.currentTarget.value;
              setRaw(text);
              try {
                onChange(text.trim() ? JSON.parse(text) : {});
                setError(undefined);
              } catch (err) {
                setError((err as Error).message);
              }
            }}
          />
          {error && <p class="error">{error}</p>}
        </>
      ) : hasFields ? (
        <ObjectFields schema={resolved} root={root} value={value} onChange={onChange} id={idPrefix} />
      ) : (
        <p class="hint">No arguments.</p>
      )}
    </div>
  );

  function switchTo(json: boolean) {
    if (json) setRaw(JSON.stringify(value ?? {}, null, 2));
    else if (!error) setRaw(undefined);
  }
}
