import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyIncluded } from "./include.js";

// What `mcpkit bundle --include data` takes from a folder, each class of secret in a
// fixture folder of its own: each is left out, said why, and not copied; what is not a
// secret goes in.

let space = "";
let moduleDir = "";
let into = "";
beforeEach(() => {
  space = mkdtempSync(join(tmpdir(), "mcpkit-include-"));
  moduleDir = join(space, "project/src");
  into = join(space, "staging/server");
  mkdirSync(join(moduleDir, "data"), { recursive: true });
  mkdirSync(into, { recursive: true });
  writeFileSync(join(moduleDir, "data/cities.json"), '["Paris"]');
});
afterEach(() => rmSync(space, { recursive: true, force: true }));

/** Writes a file under the module's data folder. */
function put(path: string, content = "x"): void {
  mkdirSync(dirname(join(moduleDir, "data", path)), { recursive: true });
  writeFileSync(join(moduleDir, "data", path), content);
}

const SERVICE_ACCOUNT = JSON.stringify({
  type: "service_account",
  project_id: "p",
  private_key_id: "1",
  private_key: "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n",
  client_email: "x@p.iam.gserviceaccount.com",
});
const KUBECONFIG =
  "apiVersion: v1\nkind: Config\nclusters: []\nusers:\n- name: admin\n  user:\n    client-key-data: LS0t\n";

describe("copyIncluded leaves out what may hold credentials, each class for its own reason", () => {
  it.each([
    ["direnv's .envrc", ".envrc", "export AWS_SECRET_ACCESS_KEY=x", "direnv's file: it exports secrets into the shell"],
    [".env", ".env.local", "API_KEY=sk-live", "it may hold secrets (.env)"],
    ["an env file named for its place", "prod.env", "DB_PASSWORD=x", "an env file, which holds secrets (*.env)"],
    ["a Vault token", ".vault-token", "hvs.x", "a HashiCorp Vault token (.vault-token)"],
    [
      "Terraform variables",
      "infra/prod.auto.tfvars",
      'db_password = "x"',
      "Terraform variables, which hold the passwords and tokens given to it",
    ],
    [
      "cargo's folder",
      ".cargo/credentials.toml",
      '[registry]\ntoken = "x"',
      "a package registry's folder, whose credentials file holds its token",
      "data/.cargo",
    ],
    ["git's credential store", ".git-credentials", "https://me:ghp_x@github.com", "git's stored passwords and tokens"],
    [
      "an npm token",
      ".npmrc",
      "//registry.npmjs.org/:_authToken=npm_x",
      "a package manager's settings, which hold registry tokens",
    ],
    ["PyPI's credentials", ".pypirc", "[pypi]\npassword = pypi-x", "PyPI's upload credentials (.pypirc)"],
    ["a .netrc", ".netrc", "machine api.example.com login me password x", "logins for hosts (.netrc)"],
    ["an .htpasswd", ".htpasswd", "admin:$apr1$x$y", "a web server's password hashes (.htpasswd)"],
    [
      "Terraform state",
      "infra/terraform.tfstate",
      '{"resources":[]}',
      "Terraform state, which holds the secrets of what it made",
    ],
    [
      "Terraform's backup state",
      "infra/terraform.tfstate.backup",
      '{"resources":[]}',
      "Terraform state, which holds the secrets of what it made",
    ],
    ["a Java keystore", "tls/server.jks", "\u00fe\u00ed\u00fe\u00ed", "a keystore"],
    ["an Android keystore", "release.keystore", "x", "a keystore"],
    ["a PEM file", "tls/server.pem", "cert", "it may be a private key or a certificate with one"],
    ["a .key file", "tls/server.key", "key", "it may be a private key or a certificate with one"],
    ["a PKCS#12 file", "tls/client.p12", "p12", "it may be a private key or a certificate with one"],
    ["a .pfx file", "tls/client.pfx", "pfx", "it may be a private key or a certificate with one"],
    ["an SSH key by its name", "id_ed25519", "key", "an SSH private key"],
    ["bash's history", ".bash_history", "export TOKEN=x", "a shell's or a tool's history, where typed secrets stay"],
    ["zsh's history", ".zsh_history", ": 1:0;curl -H x", "a shell's or a tool's history, where typed secrets stay"],
    ["fish's history", "fish/fish_history", "- cmd: x", "a shell's or a tool's history, where typed secrets stay"],
    ["Python's history", ".python_history", "token='x'", "a shell's or a tool's history, where typed secrets stay"],
    ["Node's REPL history", ".node_repl_history", "key", "a shell's or a tool's history, where typed secrets stay"],
    ["a PostgreSQL password file", ".pgpass", "db:5432:*:me:x", "a database client's passwords"],
    ["a MySQL client's settings", ".my.cnf", "[client]\npassword=x", "a database client's passwords"],
    [
      "Azure's folder",
      ".azure/msal_token_cache.json",
      "{}",
      "a cloud tool's folder of credentials (.azure, .terraform.d)",
      "data/.azure",
    ],
    [
      "Terraform's credentials folder",
      ".terraform.d/credentials.tfrc.json",
      "{}",
      "a cloud tool's folder of credentials (.azure, .terraform.d)",
      "data/.terraform.d",
    ],
    ["version control", ".git/config", "[core]", "version control", "data/.git"],
    ["the system's files", ".DS_Store", "x", "the system's, not yours"],
    ["an editor's swap file", ".cities.json.swp", "x", "an editor's file"],
    ["a log", "server.log", "GET /", "a log"],
    ["an earlier bundle", "old.mcpb", "PK", "a bundle"],
    [
      "installed packages",
      "node_modules/x/index.js",
      "x",
      "installed packages: the bundle holds those the server imports, built in",
      "data/node_modules",
    ],
    ["the .ssh folder", ".ssh/config", "Host x", "a folder of keys (.ssh, .gnupg)", "data/.ssh"],
    ["the .aws folder", ".aws/credentials", "[default]", "AWS's credentials folder (.aws)", "data/.aws"],
    [
      "the .docker folder",
      ".docker/config.json",
      "{}",
      "Docker's folder, whose config.json holds registry logins",
      "data/.docker",
    ],
    [
      "the .kube folder",
      ".kube/config",
      "x",
      "Kubernetes' folder, whose config holds cluster credentials",
      "data/.kube",
    ],
    ["gcloud's folder", "gcloud/credentials.json", "{}", "gcloud's folder of credentials", "data/gcloud"],
    ["gcloud's default credentials", "application_default_credentials.json", "{}", "gcloud's credentials"],
    ["a kubeconfig by its name", "prod.kubeconfig", "x", "a Kubernetes config, which holds cluster credentials"],
    [
      "a service account's key, whatever its name",
      "project-1234-5f6a.json",
      SERVICE_ACCOUNT,
      "a Google service account's key (type service_account, private_key)",
    ],
    [
      "a gcloud user's credentials, whatever its name",
      "adc.json",
      '{"type": "authorized_user", "client_id": "x", "refresh_token": "1//x"}',
      "a Google user's credentials (type authorized_user, refresh_token)",
    ],
    [
      "Docker's logins, whatever the file is called",
      "registry.json",
      '{"auths": {"ghcr.io": {"auth": "bWU6Z2hwX3g="}}}',
      "Docker's registry logins (auths)",
    ],
    ["a Kubernetes config, whatever its name", "cluster.yaml", KUBECONFIG, "a Kubernetes config with credentials"],
    [
      "AWS credentials, whatever their name",
      "creds.ini",
      "[default]\naws_access_key_id = AKIA\naws_secret_access_key = x\n",
      "AWS credentials (aws_secret_access_key)",
    ],
    [
      "a private key in a file named like anything",
      "notes/deploy.txt",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n",
      "it holds a private key (-----BEGIN … PRIVATE KEY-----)",
    ],
  ] as [string, string, string, string, string?][])("%s (%s)", (_what, path, content, why, folder) => {
    put(path, content);
    const { files, leftOut } = copyIncluded(["data"], moduleDir, into);
    // A folder of credentials is left out whole, and named as a folder.
    expect(leftOut).toEqual([{ path: folder ?? `data/${path}`, why }]);
    expect(existsSync(join(into, "data", path))).toBe(false);
    // The rest of the folder went in, and is listed.
    expect(files).toEqual(["data/cities.json"]);
    expect(existsSync(join(into, "data/cities.json"))).toBe(true);
  });

  it("leaves them out in any case of their names (macOS and Windows ignore case: .ENV is the .env)", () => {
    for (const name of [".ENV", ".Env.Local", "ID_ED25519", "Deploy.PEM", ".SSH/config", ".Aws/credentials"])
      put(name, "x");
    const { files, leftOut } = copyIncluded(["data"], moduleDir, into);
    expect(leftOut.map((l) => l.path).sort()).toEqual(
      ["data/.Aws", "data/.ENV", "data/.Env.Local", "data/.SSH", "data/Deploy.PEM", "data/ID_ED25519"].sort(),
    );
    expect(files).toEqual(["data/cities.json"]);
  });

  it("leaves out a link to a secret inside the module's folder, by where it leads (notes.txt -> ../.env, cloud -> ../.aws)", () => {
    writeFileSync(join(moduleDir, ".env"), "API_KEY=sk-live");
    mkdirSync(join(moduleDir, ".aws"));
    writeFileSync(join(moduleDir, ".aws/config"), "[default]");
    symlinkSync("../.env", join(moduleDir, "data/notes.txt"));
    symlinkSync("../.aws", join(moduleDir, "data/cloud"));
    const { files, leftOut } = copyIncluded(["data"], moduleDir, into);
    expect(leftOut).toEqual([
      { path: "data/cloud", why: "a link to .aws: AWS's credentials folder (.aws)" },
      { path: "data/notes.txt", why: "a link to .env: it may hold secrets (.env)" },
    ]);
    expect(files).toEqual(["data/cities.json"]);
    expect(existsSync(join(into, "data/notes.txt"))).toBe(false);
  });

  it("takes a file named with --include itself, though its name would leave it out of a folder", () => {
    put(".env.defaults", "PORT=3000");
    const { files, leftOut } = copyIncluded(["data", "data/.env.defaults"], moduleDir, into);
    expect(leftOut).toEqual([]);
    expect(files).toContain("data/.env.defaults");
  });
});

describe("copyIncluded and hard links", () => {
  it("leaves out a hard link whose other name is outside the module's folder, and refuses it named", () => {
    const key = join(space, "home/.ssh/id_ed25519");
    mkdirSync(dirname(key), { recursive: true });
    writeFileSync(key, "a key with an innocent name in the folder");
    linkSync(key, join(moduleDir, "data/notes.txt"));
    const { files, leftOut } = copyIncluded(["data"], moduleDir, into);
    expect(leftOut).toEqual([
      {
        path: "data/notes.txt",
        why: `a hard link: the same file has 2 names, and not all of them are inside ${moduleDir}`,
      },
    ]);
    expect(files).toEqual(["data/cities.json"]);
    expect(existsSync(join(into, "data/notes.txt"))).toBe(false);
    expect(() => copyIncluded(["data/notes.txt"], moduleDir, join(space, "again"))).toThrow(
      "--include data/notes.txt: a hard link: the same file has 2 names",
    );
  });

  it("takes a hard link whose names are all inside the module's folder", () => {
    linkSync(join(moduleDir, "data/cities.json"), join(moduleDir, "data/towns.json"));
    const { files, leftOut } = copyIncluded(["data"], moduleDir, into);
    expect(leftOut).toEqual([]);
    expect(files).toEqual(["data/cities.json", "data/towns.json"]);
  });
});
