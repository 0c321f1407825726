import { closeSync, openSync, readSync } from "node:fs";

/**
 * What a folder given with --include holds that a bundle leaves out: what may hold secrets,
 * and what is no part of a running server. Each rule says why in words of its own, so that
 * the list printed (and the tests) tell which rule left a file out. A file named with
 * --include itself is taken all the same; a link or a hard link leading out never is
 * (include.ts).
 */
export interface Rule {
  /**
   * Matches a file's or folder's own name, in any case: macOS and Windows ignore case, so
   * `.ENV` is the file dotenv reads as `.env`, and `ID_RSA` a key all the same.
   */
  name: RegExp;
  /** Only folders (true), only files (false), or both (undefined). */
  folder?: boolean;
  why: string;
}

export const NAME_RULES: Rule[] = [
  { name: /^\.env(\..+)?$/i, why: "it may hold secrets (.env)" },
  // Docker Compose's env_file and the like: prod.env, app.env.
  { name: /.\.env$/i, why: "an env file, which holds secrets (*.env)" },
  { name: /^\.vault-token$/i, why: "a HashiCorp Vault token (.vault-token)" },
  { name: /^\.envrc$/i, why: "direnv's file: it exports secrets into the shell" },
  { name: /^\.git-credentials$/i, why: "git's stored passwords and tokens" },
  { name: /^\.(npmrc|yarnrc|yarnrc\.yml)$/i, why: "a package manager's settings, which hold registry tokens" },
  { name: /^(\.netrc|_netrc)$/i, why: "logins for hosts (.netrc)" },
  { name: /^\.pypirc$/i, why: "PyPI's upload credentials (.pypirc)" },
  { name: /^\.(pgpass|my\.cnf)$/i, why: "a database client's passwords" },
  { name: /^\.htpasswd$/i, why: "a web server's password hashes (.htpasswd)" },
  {
    name: /^terraform\.tfstate(\..+)?$|\.tfstate(\.backup)?$/i,
    why: "Terraform state, which holds the secrets of what it made",
  },
  { name: /\.tfvars(\.json)?$/i, why: "Terraform variables, which hold the passwords and tokens given to it" },
  { name: /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/i, why: "an SSH private key" },
  { name: /\.(pem|key|p12|pfx|ppk)$/i, why: "it may be a private key or a certificate with one" },
  { name: /\.(jks|keystore|truststore|bks|kdbx)$/i, why: "a keystore" },
  {
    name: /^\.[\w.-]*_?history$|^fish_history$|^ConsoleHost_history\.txt$|^\.lesshst$/i,
    why: "a shell's or a tool's history, where typed secrets stay",
  },
  { name: /^(application_default_credentials\.json|credentials\.db|access_tokens\.db)$/i, why: "gcloud's credentials" },
  { name: /^(kubeconfig|.*\.kubeconfig)$/i, why: "a Kubernetes config, which holds cluster credentials" },
  { name: /^\.(ssh|gnupg)$/i, folder: true, why: "a folder of keys (.ssh, .gnupg)" },
  { name: /^\.aws$/i, folder: true, why: "AWS's credentials folder (.aws)" },
  {
    name: /^\.(cargo|gem)$/i,
    folder: true,
    why: "a package registry's folder, whose credentials file holds its token",
  },
  { name: /^\.docker$/i, folder: true, why: "Docker's folder, whose config.json holds registry logins" },
  { name: /^\.kube$/i, folder: true, why: "Kubernetes' folder, whose config holds cluster credentials" },
  { name: /^(gcloud|\.gcloud)$/i, folder: true, why: "gcloud's folder of credentials" },
  {
    name: /^\.(azure|terraform\.d)$/i,
    folder: true,
    why: "a cloud tool's folder of credentials (.azure, .terraform.d)",
  },
  { name: /^\.(git|hg|svn)$/i, folder: true, why: "version control" },
  { name: /^(\.DS_Store|Thumbs\.db|desktop\.ini)$/i, why: "the system's, not yours" },
  { name: /\.sw[a-p]$|~$|^\.#|^#.*#$/i, why: "an editor's file" },
  { name: /\.log$/i, why: "a log" },
  { name: /\.mcpb$/i, why: "a bundle" },
  {
    name: /^node_modules$/i,
    folder: true,
    why: "installed packages: the bundle holds those the server imports, built in",
  },
];

/** The rule a name falls under, if any. */
export function nameRule(name: string, folder: boolean): Rule | undefined {
  return NAME_RULES.find((rule) => (rule.folder === undefined || rule.folder === folder) && rule.name.test(name));
}

/**
 * Secrets known by what they hold, whatever the file is called: a Google service account's
 * or gcloud user's JSON, Docker's registry logins, a private key in PEM or OpenSSH form,
 * AWS's credentials file, a Kubernetes config with its keys or tokens. The first that
 * matches says why (a service account's JSON holds a PEM key too).
 */
export const CONTENT_RULES: { test: (text: string) => boolean; why: string }[] = [
  {
    test: (text) => /"type"\s*:\s*"service_account"/.test(text) && /"private_key"\s*:/.test(text),
    why: "a Google service account's key (type service_account, private_key)",
  },
  {
    test: (text) => /"type"\s*:\s*"authorized_user"/.test(text) && /"refresh_token"\s*:/.test(text),
    why: "a Google user's credentials (type authorized_user, refresh_token)",
  },
  {
    test: (text) => /"auths"\s*:\s*\{/.test(text) && /"(auth|identitytoken)"\s*:\s*"/.test(text),
    why: "Docker's registry logins (auths)",
  },
  {
    test: (text) => /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/.test(text),
    why: "it holds a private key (-----BEGIN … PRIVATE KEY-----)",
  },
  {
    test: (text) => /^\s*aws_secret_access_key\s*=/im.test(text),
    why: "AWS credentials (aws_secret_access_key)",
  },
  {
    test: (text) => /^kind:\s*["']?Config["']?\s*$/m.test(text) && /^\s*(client-key-data|token|password):/m.test(text),
    why: "a Kubernetes config with credentials",
  },
];

/** How much of a file its contents are judged by: secrets of the kinds above sit near its start. */
const SNIFFED = 256 * 1024;

/** Why a file is left out for what it holds, if it is. */
export function contentRule(path: string): string | undefined {
  const head = Buffer.alloc(SNIFFED);
  const fd = openSync(path, "r");
  let length: number;
  try {
    length = readSync(fd, head, 0, SNIFFED, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.subarray(0, length).toString("latin1");
  return CONTENT_RULES.find((rule) => rule.test(text))?.why;
}
