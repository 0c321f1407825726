import { useEffect, useRef, useState } from "preact/hooks";
import type { JsonObject } from "../types.js";

/**
 * A form generated from a JSON Schema (a tool's inputSchema, an elicitation's
 * requestedSchema): strings with their formats, numbers, integers, booleans, enums (plain,
 * titled, legacy enumNames), arrays, nested objects, nullable fields, defaults, local
 * $refs, and a raw JSON mode for anything a form cannot say.
 *
 * What the schema demands is checked before the form is submitted: the browser checks
 * what HTML says (required, lengths, bounds, integers, email, URL); the rest (patterns,
 * time and date-time, exclusive bounds, JSON) is set as each control's custom validity,
 * so a form that breaks it is not submitted, and the message shows under the field.
 */

type Schema = JsonObject;
type Change = (value: unknown) => void;

/** Formats a browser control checks by itself. `time` is not one: `<input type=time>` gives 14:30, RFC 3339 wants 14:30:00Z. */
const FORMAT_INPUT: Record<string, "date" | "email" | "url"> = {
  date: "date",
  email: "email",
  uri: "url",
  url: "url",
};

/** RFC 3339 §5.6, as JSON Schema's `time` and `date-time` formats use it. */
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
const FORMAT_CHECKS: Record<string, { re: RegExp; example: string }> = {
  time: { re: new RegExp(`^${TIME}$`), example: "14:30:00Z" },
  "date-time": {
    re: new RegExp(`^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])[Tt]${TIME}$`),
    example: "2026-01-31T14:30:00Z",
  },
};

/** What is wrong with a string the browser cannot tell: its format (time, date-time) or its pattern. */
function stringProblem(schema: Schema, text: string): string | undefined {
  if (text === "") return undefined;
  const format = FORMAT_CHECKS[schema.format as string];
  if (format && !format.re.test(text)) return `Write a ${schema.format} as ${format.example}`;
  if (typeof schema.pattern === "string") {
    let re: RegExp | undefined;
    try {
      // JSON Schema patterns are ECMA-262 and not anchored (unlike HTML's pattern attribute).
      re = new RegExp(schema.pattern, "u");
    } catch {
      re = undefined; // a pattern this browser cannot read: the server checks it
    }
    if (re && !re.test(text)) return `Must match the pattern ${schema.pattern}`;
  }
  return undefined;
}

/** What is wrong with a number the browser's min, max and step do not say. */
function numberProblem(schema: Schema, value: unknown): string | undefined {
  if (typeof value !== "number") return undefined;
  const { multipleOf } = schema;
  // 2020-12 gives the exclusive bound as a number; draft-04 as `true` beside minimum/maximum.
  const low = schema.exclusiveMinimum === true ? schema.minimum : schema.exclusiveMinimum;
  const high = schema.exclusiveMaximum === true ? schema.maximum : schema.exclusiveMaximum;
  if (typeof low === "number" && value <= low) return `Must be greater than ${low}`;
  if (typeof high === "number" && value >= high) return `Must be less than ${high}`;
  if (typeof multipleOf === "number" && multipleOf > 0 && !Number.isInteger(Number((value / multipleOf).toFixed(9))))
    return `Must be a multiple of ${multipleOf}`;
  return undefined;
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A control's validity: `problem` (what the browser does not check itself) becomes its
 * custom validity, and the browser's message is shown once a submit was refused for it,
 * until the control is valid again.
 */
function useValidity<T extends Control>(problem: string | undefined) {
  const ref = useRef<T>(null);
  const [shown, setShown] = useState<string>();
  useEffect(() => {
    const control = ref.current;
    if (!control) return;
    control.setCustomValidity(problem ?? "");
    if (shown !== undefined && control.validity.valid) setShown(undefined);
  });
  return {
    ref,
    onInvalid: (e: Event) => setShown((e.currentTarget as Control).validationMessage),
    message:
      shown === undefined ? null : (
        <p class="error field-error" role="alert">
          {shown}
        </p>
      ),
  };
}

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
  if (s.const !== undefined) return structuredClone(s.const);
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

const characters = (n: number) => `${n} character${n === 1 ? "" : "s"}`;

function Hint({ schema }: { schema: Schema }) {
  const facts = [
    schema.format && `format: ${schema.format}`,
    typeof schema.minimum === "number" && `≥ ${schema.minimum}`,
    typeof schema.exclusiveMinimum === "number" && `> ${schema.exclusiveMinimum}`,
    typeof schema.maximum === "number" && `≤ ${schema.maximum}`,
    typeof schema.exclusiveMaximum === "number" && `< ${schema.exclusiveMaximum}`,
    typeof schema.minLength === "number" && `at least ${characters(schema.minLength)}`,
    typeof schema.maxLength === "number" && `at most ${characters(schema.maxLength)}`,
    schema.pattern && `pattern: ${schema.pattern}`,
  ].filter(Boolean);
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
  const nullToggle = nullable && (
    <label class="null-toggle">
      <input
        type="checkbox"
        aria-label={`${title} is null`}
        checked={isNull}
        onChange={(e) => onChange(e.currentTarget.checked ? null : initialValue(schema, root))}
      />{" "}
      null
    </label>
  );
  if (!isNull && type === "object" && schema.properties) {
    const present = value !== undefined;
    return (
      <fieldset class="object" id={id}>
        <legend>
          {title}
          {required && <span class="req">*</span>}
          {nullToggle}
        </legend>
        <Hint schema={schema} />
        <ObjectFields
          schema={schema}
          root={root}
          value={value}
          present={present}
          // An optional object left blank is not sent: its required fields then demand nothing.
          onChange={(next) => onChange(!required && isBlankObject(next) ? undefined : next)}
          id={id}
        />
      </fieldset>
    );
  }
  return (
    <div class="field">
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
        {nullToggle}
      </div>
      {isNull ? <input id={id} disabled value="null" /> : <Control {...props} schema={schema} type={type} />}
      <Hint schema={schema} />
    </div>
  );
}

/** An object none of whose fields was given a value (cleared text fields count as not given). */
const isBlankObject = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => v === undefined || v === "");

/** The control for a value that is not null, by its type. */
function Control(props: FieldProps & { type: string | undefined }) {
  const { schema, type } = props;
  const choices = choicesOf(schema);
  if (choices && type !== "array") return <ChoiceControl {...props} choices={choices} />;
  if (type === "boolean") return <BooleanControl {...props} />;
  if (type === "number" || type === "integer") return <NumberControl {...props} />;
  if (type === "string") return <StringControl {...props} />;
  if (type === "array") return <ArrayField {...props} />;
  return <JsonField id={props.id} value={props.value} onChange={props.onChange} />;
}

function ChoiceControl({
  id,
  value,
  onChange,
  required,
  choices,
}: FieldProps & { choices: { value: unknown; title: string }[] }) {
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

function BooleanControl({ id, value, onChange }: FieldProps) {
  return (
    <label class="check">
      <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span>{value === undefined ? "(unset)" : String(value)}</span>
    </label>
  );
}

function NumberControl({ schema, id, value, onChange, required, type }: FieldProps & { type: string | undefined }) {
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

function StringControl({ schema, id, value, onChange, required }: FieldProps) {
  const text = value === undefined ? "" : String(value);
  const check = useValidity<HTMLInputElement & HTMLTextAreaElement>(stringProblem(schema, text));
  const long = (schema.maxLength ?? 0) > 200 || schema.format === "textarea";
  const common = {
    id,
    ref: check.ref,
    onInvalid: check.onInvalid,
    required,
    value: text,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    placeholder: FORMAT_CHECKS[schema.format as string]?.example ?? schema.examples?.[0],
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
        <input type={(FORMAT_INPUT[schema.format as string] ?? "text") as "text"} {...common} />
      )}
      {check.message}
    </>
  );
}

function ObjectFields({
  schema,
  root,
  value,
  onChange,
  id,
  present = true,
}: {
  schema: Schema;
  root: Schema;
  value: unknown;
  onChange: Change;
  id: string;
  /** False for an optional object not given (yet): its required fields demand nothing until it is. */
  present?: boolean;
}) {
  const object = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const required: string[] = present ? (schema.required ?? []) : [];
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
      <button
        type="button"
        class="small"
        onClick={() =>
          onChange([...list, initialValue(items, root) ?? (typeOf(items).type === "boolean" ? false : undefined)])
        }
      >
        Add item
      </button>
    </div>
  );
}

/** A value of a schema the form cannot draw: typed as JSON. */
function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange: Change }) {
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

/** Why a text is not the JSON asked for (any value, or an object for a whole form's arguments). */
function jsonProblem(text: string, object: boolean): string | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`;
  }
  if (object && (typeof value !== "object" || value === null || Array.isArray(value)))
    return "The arguments must be a JSON object: { … }";
  return undefined;
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
  raw: keptRaw,
  onRawChange,
}: {
  schema: Schema | undefined;
  value: unknown;
  onChange: Change;
  idPrefix: string;
  /** The JSON mode's text (undefined: the form), when the caller keeps it across visits. */
  raw?: string | undefined;
  onRawChange?: (raw: string | undefined) => void;
}) {
  const [ownRaw, setOwnRaw] = useState<string | undefined>(undefined);
  const raw = onRawChange ? keptRaw : ownRaw;
  const setRaw = onRawChange ?? setOwnRaw;
  const root = schema ?? { type: "object" };
  const resolved = resolve(root, root);
  const hasFields = Object.keys(resolved.properties ?? {}).length > 0;
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
