import { type Resource, type ResourceContents, type ResourceTemplate, UriTemplate } from "mcpkit";
import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { useList } from "../lists.js";
import { CompletionInput } from "../parts/completion-input.js";
import { Annotations, ResourceBody } from "../parts/content.js";
import { JsonView } from "../parts/json.js";
import { useKept, useStore } from "../store.js";

/** Resources and templates: read, subscribe, watch updates, fill a template's variables with completion. */
export function ResourcesView() {
  const resources = useList("resources");
  const templates = useList("templates");
  const focus = useStore((s) => s.focus);
  const [selected, setSelected] = useKept<{ uri: string } | { template: string } | undefined>(
    "resources.selected",
    undefined,
  );
  useEffect(() => {
    if (focus?.uri) setSelected({ uri: focus.uri });
  }, [focus]);
  const current = selected ?? (resources.items?.[0] ? { uri: resources.items[0].uri } : undefined);
  return (
    <section class="view split" aria-labelledby="resources-title">
      <div class="list-pane">
        <div class="pane-head">
          <h2 id="resources-title">
            Resources {resources.items && <span class="count">{resources.items.length}</span>}
          </h2>
          <button
            type="button"
            class="small"
            onClick={() => {
              resources.reload();
              templates.reload();
            }}
          >
            Refresh
          </button>
        </div>
        {resources.error && <p class="error">{resources.error}</p>}
        <ul class="items" aria-label="Resources">
          {(resources.items ?? []).map((r) => (
            <li key={r.uri}>
              <button
                type="button"
                class="item"
                data-uri={r.uri}
                aria-current={current && "uri" in current && current.uri === r.uri}
                onClick={() => setSelected({ uri: r.uri })}
              >
                <span class="item-name">{r.title ?? r.name}</span>
                <span class="item-sub mono">{r.uri}</span>
              </button>
            </li>
          ))}
        </ul>
        <h3 class="sub-head">Templates {templates.items && <span class="count">{templates.items.length}</span>}</h3>
        <ul class="items" aria-label="Resource templates">
          {(templates.items ?? []).map((t) => (
            <li key={t.uriTemplate}>
              <button
                type="button"
                class="item"
                data-template={t.uriTemplate}
                aria-current={current && "template" in current && current.template === t.uriTemplate}
                onClick={() => setSelected({ template: t.uriTemplate })}
              >
                <span class="item-name">{t.title ?? t.name}</span>
                <span class="item-sub mono">{t.uriTemplate}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {!current && <p class="hint">{resources.hint ?? "No resources: a template may name some."}</p>}
        {current && "uri" in current && (
          <ResourceDetail
            key={current.uri}
            uri={current.uri}
            resource={resources.items?.find((r) => r.uri === current.uri)}
          />
        )}
        {current && "template" in current && (
          <TemplateDetail
            key={current.template}
            template={templates.items?.find((t) => t.uriTemplate === current.template)}
          />
        )}
      </div>
    </section>
  );
}

/**
 * A template, parsed with the library's RFC 6570 templates; one that does not parse is said
 * so, not drawn. Variables left empty are left out of the URI (unset, RFC 6570 §3.2.1).
 */
function parseTemplate(text: string): { template?: UriTemplate; error?: string } {
  try {
    return { template: new UriTemplate(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const expand = (template: UriTemplate, values: Record<string, string>) =>
  template.expand(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")));

function TemplateDetail({ template }: { template: ResourceTemplate | undefined }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [uri, setUri] = useState<string>();
  if (!template) return null;
  const parsed = parseTemplate(template.uriTemplate);
  const names = [...new Set(parsed.template?.variableNames ?? [])];
  return (
    <div>
      <h3>{template.title ?? template.name}</h3>
      <div class="mono hint">{template.uriTemplate}</div>
      {template.description && <p>{template.description}</p>}
      {parsed.error && <p class="error">The template does not parse: {parsed.error}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed.template) setUri(expand(parsed.template, values));
        }}
      >
        {names.map((name) => (
          <div class="field" key={name}>
            <label for={`tv-${name}`}>{name}</label>
            <CompletionInput
              id={`tv-${name}`}
              value={values[name] ?? ""}
              onChange={(value) => setValues({ ...values, [name]: value })}
              complete={(partial) =>
                call("completion/complete", {
                  ref: { type: "ref/resource", uri: template.uriTemplate },
                  argument: { name, value: partial },
                  context: { arguments: values },
                }).then((r) => r.completion)
              }
            />
          </div>
        ))}
        <div class="row actions">
          <span class="mono hint grow">{parsed.template ? expand(parsed.template, values) : ""}</span>
          <button type="submit" class="primary">
            Read
          </button>
        </div>
      </form>
      {uri && <ResourceDetail key={uri} uri={uri} resource={undefined} />}
    </div>
  );
}

const watching = new Set<string>();

function ResourceDetail({ uri, resource }: { uri: string; resource: Resource | undefined }) {
  const [contents, setContents] = useState<ResourceContents[]>();
  const [error, setError] = useState<string>();
  const [subscribed, setSubscribed] = useState(watching.has(uri));
  const canSubscribe = useStore((s) => !!s.connection.description?.capabilities?.resources?.subscribe);
  // "count|last time": a string, so the view re-renders only when an update for this URI came.
  const [count, last] = useStore((s) => {
    const mine = s.notifications.filter((n) => n.method === "notifications/resources/updated" && n.params.uri === uri);
    return `${mine.length}|${mine.at(-1)?.at ?? ""}`;
  })
    .split("|")
    .map((v) => (v === "" ? undefined : Number(v)));
  const [readAt, setReadAt] = useState<number>();

  async function read() {
    try {
      const result = await call("resources/read", { uri });
      setContents(result.contents);
      setError(undefined);
      setReadAt(Date.now());
    } catch (e) {
      setError((e as Error).message);
    }
  }
  useEffect(() => {
    read();
  }, [uri]);
  // Watching: every update the server announces is read again at once.
  useEffect(() => {
    if (subscribed && last !== undefined && (readAt === undefined || last > readAt)) read();
  }, [last]);

  async function toggle() {
    try {
      await call(subscribed ? "resources/unsubscribe" : "resources/subscribe", { uri });
      if (subscribed) watching.delete(uri);
      else watching.add(uri);
      setSubscribed(!subscribed);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <div class="resource-detail">
      <div class="detail-head">
        <h3>{resource?.title ?? resource?.name ?? uri}</h3>
        <Annotations annotations={resource?.annotations} />
      </div>
      <div class="mono hint">
        {uri}
        {resource?.mimeType && ` · ${resource.mimeType}`}
        {resource?.size !== undefined && ` · ${resource.size} bytes`}
      </div>
      {resource?.description && <p>{resource.description}</p>}
      <div class="row actions">
        <button type="button" onClick={read}>
          Read again
        </button>
        {canSubscribe && (
          <button type="button" aria-pressed={subscribed} onClick={toggle}>
            {subscribed ? "Unsubscribe" : "Subscribe and watch"}
          </button>
        )}
        {count !== undefined && count > 0 && (
          <span class="pill good" data-testid="updates">
            updated {count}× · last at {new Date(last ?? 0).toLocaleTimeString()}
          </span>
        )}
      </div>
      {error && <p class="error">{error}</p>}
      {contents?.map((content, i) => (
        <div class="block" key={i}>
          <div class="block-type">{content.mimeType ?? "contents"}</div>
          <ResourceBody content={content} />
          {content._meta && (
            <details>
              <summary>_meta</summary>
              <JsonView value={content._meta} />
            </details>
          )}
        </div>
      ))}
    </div>
  );
}
