/**
 * How a mounted server's names and URIs are namespaced under its prefix:
 *
 * - tools and prompts: `prefix_name` (`weather` + `forecast` → `weather_forecast`; another
 *   separator may join them), which stays a valid tool name;
 * - URIs with an authority (`scheme://rest`): the prefix becomes the first segment after
 *   `://` (`docs://guide/intro` → `docs://weather/guide/intro`, `file:///a` → `file://weather//a`);
 * - other URIs (`urn:x:y`, `mailto:…`): the prefix joins the scheme (`weather+urn:x:y`; a
 *   "_" of the prefix is "-" there, which a scheme can hold).
 *
 * Every mapping is reversible: the mounted server sees its own names and URIs. The empty
 * prefix mounts at the root: names and URIs stay as the mounted server has them.
 */
export interface Namespace {
  readonly prefix: string;
  name(name: string): string;
  /** The mounted server's name for a name of ours, or undefined when it is not under the prefix. */
  innerName(name: string): string | undefined;
  uri(uri: string): string;
  innerUri(uri: string): string | undefined;
}

const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

const ROOT: Namespace = {
  prefix: "",
  name: (name) => name,
  innerName: (name) => name,
  uri: (uri) => uri,
  innerUri: (uri) => uri,
};

/** What may join a prefix and a name: one to three of `_`, `-` and `.`, so names stay valid tool names. */
const SEPARATOR = /^[_.-]{1,3}$/;

export function namespace(prefix: string, separator = "_"): Namespace {
  if (prefix === "") return ROOT;
  if (!PREFIX.test(prefix))
    throw new TypeError(
      `Mount prefix "${prefix}" must start with a letter or digit and hold only letters, digits, "_", "." and "-"`,
    );
  if (!SEPARATOR.test(separator))
    throw new TypeError(`Mount separator "${separator}" must be one to three of "_", "-" and "."`);
  const head = prefix + separator;
  // A URI scheme cannot hold "_" (RFC 3986 §3.1): joined to one, the prefix has "-" instead.
  const joined = `${prefix.replace(/_/g, "-")}+`;
  return {
    prefix,
    name: (name) => head + name,
    innerName: (name) => (name.startsWith(head) ? name.slice(head.length) : undefined),
    uri(uri) {
      const scheme = SCHEME.exec(uri)?.[1];
      if (scheme === undefined) throw new TypeError(`"${uri}" has no URI scheme to namespace`);
      const rest = uri.slice(scheme.length + 1);
      return rest.startsWith("//") ? `${scheme}://${prefix}/${rest.slice(2)}` : joined + uri;
    },
    innerUri(uri) {
      const inner = uri.startsWith(joined) ? uri.slice(joined.length) : undefined;
      // The joined form is used only for URIs without an authority.
      if (inner !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(inner)) return inner;
      const scheme = SCHEME.exec(uri)?.[1];
      if (scheme === undefined) return undefined;
      const head = `${scheme}://${prefix}/`;
      return uri.startsWith(head) ? `${scheme}://${uri.slice(head.length)}` : undefined;
    },
  };
}
