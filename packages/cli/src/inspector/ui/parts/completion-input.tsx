import { useEffect, useRef, useState } from "preact/hooks";

/**
 * A text field that asks the server for completions (completion/complete) as the person
 * types, and shows them as buttons below it: click one, or press ArrowDown to reach them.
 */
export function CompletionInput({
  id,
  value,
  onChange,
  complete,
  required,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  complete: ((partial: string) => Promise<{ values: string[]; total?: number; hasMore?: boolean }>) | undefined;
  required?: boolean;
}) {
  const [suggestions, setSuggestions] = useState<{ values: string[]; total?: number; hasMore?: boolean }>();
  const [open, setOpen] = useState(false);
  const asked = useRef(0);
  const list = useRef<HTMLUListElement>(null);
  // A suggestion picked hands the focus back to the field without asking again.
  const picked = useRef(false);

  useEffect(() => {
    if (!complete || !open) return;
    const seq = ++asked.current;
    const timer = setTimeout(() => {
      complete(value)
        .then((answer) => {
          if (seq === asked.current) setSuggestions(answer);
        })
        .catch(() => {
          if (seq === asked.current) setSuggestions(undefined);
        });
    }, 120);
    return () => clearTimeout(timer);
  }, [value, open]);

  const shown = open && suggestions && suggestions.values.length > 0;
  return (
    <div class="completion">
      <input
        id={id}
        value={value}
        required={required}
        autocomplete="off"
        aria-autocomplete={complete ? "list" : undefined}
        aria-controls={complete ? `${id}-suggestions` : undefined}
        onFocus={() => {
          if (picked.current) picked.current = false;
          else setOpen(true);
        }}
        onInput={(e) => {
          setOpen(true);
          onChange(e.currentTarget.value);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && shown) {
            e.preventDefault();
            list.current?.querySelector("button")?.focus();
          } else if (e.key === "Escape") setOpen(false);
        }}
      />
      {shown && (
        <ul class="suggestions" id={`${id}-suggestions`} ref={list} aria-label="Completions">
          {suggestions.values.slice(0, 12).map((v) => (
            <li key={v}>
              <button
                type="button"
                onKeyDown={(e) => {
                  const li = e.currentTarget.parentElement;
                  if (e.key === "ArrowDown") (li?.nextElementSibling?.querySelector("button") as HTMLElement)?.focus();
                  else if (e.key === "ArrowUp") {
                    const prev = li?.previousElementSibling?.querySelector("button") as HTMLElement | null;
                    if (prev) prev.focus();
                    else (document.getElementById(id) as HTMLElement | null)?.focus();
                  } else return;
                  e.preventDefault();
                }}
                onClick={() => {
                  onChange(v);
                  setOpen(false);
                  picked.current = true;
                  (document.getElementById(id) as HTMLElement | null)?.focus();
                }}
              >
                {v}
              </button>
            </li>
          ))}
          {(suggestions.hasMore || (suggestions.total ?? 0) > suggestions.values.length) && (
            <li class="hint">{suggestions.total !== undefined ? `${suggestions.total} in all` : "more…"}</li>
          )}
        </ul>
      )}
    </div>
  );
}
