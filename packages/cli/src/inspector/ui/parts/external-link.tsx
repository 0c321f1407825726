import type { ComponentChildren } from "preact";
import { externalHref } from "./link-target.js";

export { externalHref };

/** A link to a server's address: its text alone (the address on hover) when it may not open. */
export function ExternalLink({
  href,
  class: className,
  children,
}: {
  href: unknown;
  class?: string;
  children: ComponentChildren;
}) {
  const safe = externalHref(href);
  if (!safe)
    return (
      <span class="link-text" title={typeof href === "string" ? href : undefined} data-refused-link="true">
        {children}
      </span>
    );
  return (
    <a class={className} href={safe} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Opens a server's link (an MCP App's ui/open-link) as ExternalLink would; false when it may not. */
export function openExternal(href: unknown): boolean {
  const safe = externalHref(href);
  if (!safe) return false;
  window.open(safe, "_blank", "noopener,noreferrer");
  return true;
}
