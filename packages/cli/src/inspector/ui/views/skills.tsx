import type { SkillEntry } from "mcpkit/client";
import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { JsonView } from "../parts/json.js";
import { Markdown } from "../parts/markdown.js";
import { useStore } from "../store.js";

const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** Skills (the Skills extension): the list, and a skill's SKILL.md once loaded and verified. */
export function SkillsView() {
  const connected = useStore((s) => s.connection.status === "connected");
  // A server without the extension is not asked: that is said, not shown as a failure.
  const offered = useStore((s) => !!s.connection.description?.capabilities?.extensions?.[SKILLS_EXTENSION]);
  const [skills, setSkills] = useState<SkillEntry[]>();
  const [error, setError] = useState<string>();
  const [loaded, setLoaded] = useState<{ uri: string; text?: string; entry?: SkillEntry; error?: string }>();
  useEffect(() => {
    if (!connected || !offered) return;
    call("skills/list")
      .then((list) => {
        setSkills(list);
        setError(undefined);
      })
      .catch((e: Error) => setError(e.message));
  }, [connected, offered]);
  const load = async (uri: string, allowUnverified = false) => {
    try {
      const skill = await call("skills/load", { uri, allowUnverified });
      setLoaded({ uri, ...skill });
    } catch (e) {
      setLoaded({ uri, error: (e as Error).message });
    }
  };
  return (
    <section class="view split" aria-labelledby="skills-title">
      <div class="list-pane">
        <div class="pane-head">
          <h2 id="skills-title">Skills {skills && <span class="count">{skills.length}</span>}</h2>
        </div>
        {error && <p class="error">{error}</p>}
        <ul class="items" aria-label="Skills">
          {(skills ?? []).map((s) => (
            <li key={s.uri}>
              <button type="button" class="item" aria-current={loaded?.uri === s.uri} onClick={() => load(s.uri)}>
                <span class="item-name">{s.frontmatter?.name ?? s.uri}</span>
                {s.frontmatter?.description && <span class="item-sub">{s.frontmatter.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {loaded?.error && (
          <>
            <p class="error">{loaded.error}</p>
            {/unverif|digest/i.test(loaded.error) && (
              <button type="button" onClick={() => load(loaded.uri, true)}>
                Load it unverified
              </button>
            )}
          </>
        )}
        {loaded?.text && (
          <>
            <div class="mono hint">{loaded.uri}</div>
            {loaded.entry?.frontmatter && (
              <dl class="facts-list">
                {Object.entries(loaded.entry.frontmatter).map(([key, value]) => (
                  <>
                    <dt key={`${key}-t`}>{key}</dt>
                    <dd key={`${key}-d`}>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
                  </>
                ))}
              </dl>
            )}
            <div class="card">
              <Markdown text={withoutFrontmatter(loaded.text)} />
            </div>
            {loaded.entry && Array.isArray(loaded.entry.resources) && (
              <>
                <h4>Files</h4>
                <ul class="files">
                  {loaded.entry.resources.map((file) => (
                    <li key={file.uri} class="mono">
                      {file.uri} <span class="hint">{file.size !== undefined && `${file.size} bytes`}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
            <details>
              <summary>Entry</summary>
              <JsonView value={loaded.entry} />
            </details>
          </>
        )}
        {!loaded && (
          <p class="hint">
            {offered
              ? "Choose a skill to load its SKILL.md (checked against its digest)."
              : `The server does not offer skills (no ${SKILLS_EXTENSION} extension in its capabilities).`}
          </p>
        )}
      </div>
    </section>
  );
}

/** SKILL.md without its `---` frontmatter block, which is shown as a list above it. */
const withoutFrontmatter = (text: string) => text.replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---\r?\n/, "");
