import {
  BooleanControl,
  ChoiceControl,
  type ControlProps,
  Hint,
  JsonControl,
  NumberControl,
  StringControl,
} from "./controls.js";
import {
  choicesOf,
  initialValue,
  isBlankObject,
  propertiesOf,
  requiredOf,
  resolve,
  type Schema,
  toggleChoice,
  typeOf,
  withField,
} from "./schema.js";

interface FieldProps extends ControlProps {
  root: Schema;
  label: string;
}

/** One field, by its schema's type: an object's fields in a fieldset, anything else one control. */
export function Field(props: FieldProps) {
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

/** The control for a value that is not null, by its type. */
function Control(props: FieldProps & { type: string | undefined }) {
  const { schema, type } = props;
  const choices = choicesOf(schema);
  if (choices && type !== "array") return <ChoiceControl {...props} choices={choices} />;
  if (type === "boolean") return <BooleanControl {...props} />;
  if (type === "number" || type === "integer") return <NumberControl {...props} />;
  if (type === "string") return <StringControl {...props} />;
  if (type === "array") return <ArrayField {...props} />;
  return <JsonControl id={props.id} value={props.value} onChange={props.onChange} />;
}

export function ObjectFields({
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
  onChange: (value: unknown) => void;
  id: string;
  /** False for an optional object not given (yet): its required fields demand nothing until it is. */
  present?: boolean;
}) {
  const object = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const required = present ? requiredOf(schema) : [];
  return (
    <>
      {propertiesOf(schema).map(([name, prop]) => (
        <Field
          key={name}
          schema={prop}
          root={root}
          id={`${id}.${name}`}
          label={name}
          required={required.includes(name)}
          value={object[name]}
          onChange={(next) => onChange(withField(object, name, next))}
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
              onChange={(e) => onChange(toggleChoice(choices, list, c.value, e.currentTarget.checked))}
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
