#!/usr/bin/env node
// Compiles the server and the sandbox cloud ahead of time into one self-contained folder that
// runs with plain `node`, beside the files they read at run time and a package.json naming only
// the dependencies that cannot be bundled:
//
//   node scripts/build-server.mjs [--out DIR] [--install]     (DIR: dist/server; relative to the repository)
//
//   DIR/main.mjs            the server (node DIR/main.mjs, same options and environment as npm start)
//   DIR/sandbox.mjs         the sandbox cloud's command line (node DIR/sandbox.mjs serve ...)
//   DIR/chunk-*.mjs         code both share
//   DIR/migrations/         the database migrations
//   DIR/web/                the built web app (run `npm run build` first)
//   DIR/policy-engine/      the policy catalogue, and the sources of its validation (they key its cache)
//   DIR/package.json        runtime dependencies only; --install runs `npm ci --omit=dev` for them
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: options } = parseArgs({
  options: { out: { type: "string", default: "dist/server" }, install: { type: "boolean", default: false } },
});
const out = resolve(root, options.out);

/**
 * Packages left out of the bundle and installed beside it. PGlite loads its WebAssembly, data
 * and extension files from its own folder; pg-native is pg's optional native driver, never
 * installed here.
 */
const RUNTIME_PACKAGES = ["@electric-sql/pglite"];
const NEVER_INSTALLED = ["pg-native"];

/**
 * Folders that modules find relative to their own source file. In the bundle every module's
 * `import.meta.url` is the bundle's, so each is pointed at its copy in the output folder; the
 * build fails if the source no longer reads the folder this way, instead of shipping a server
 * that cannot find it.
 */
const RELOCATED = [
  {
    file: "apps/server/src/boot/config.ts",
    from: 'new URL("../../../web/dist", import.meta.url)',
    to: 'new URL("./web", import.meta.url)',
  },
  {
    file: "apps/server/src/db/database.ts",
    from: 'new URL("./migrations", import.meta.url)',
    to: 'new URL("./migrations", import.meta.url)',
  },
  {
    file: "packages/policy-engine/src/catalogue/read-catalogue-files.ts",
    from: 'new URL("../../catalogue", import.meta.url)',
    to: 'new URL("./policy-engine/catalogue", import.meta.url)',
  },
];

const relocate = {
  name: "relocate-run-time-files",
  setup(esbuild) {
    const seen = new Set();
    for (const { file, from, to } of RELOCATED) {
      const path = join(root, file);
      esbuild.onLoad({ filter: new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }, () => {
        const source = readFileSync(path, "utf8");
        if (!source.includes(from)) throw new Error(`${file} no longer contains ${from}: update RELOCATED`);
        seen.add(file);
        return { contents: source.replaceAll(from, to), loader: "ts", resolveDir: dirname(path) };
      });
    }
    esbuild.onEnd((result) => {
      if (result.errors.length > 0) return;
      const missing = RELOCATED.filter(({ file }) => !seen.has(file)).map(({ file }) => file);
      if (missing.length > 0) throw new Error(`Not in the bundle any more: ${missing.join(", ")}`);
    });
  },
};

const webDist = join(root, "apps/web/dist");
if (!existsSync(join(webDist, "index.html"))) {
  console.error("apps/web/dist is missing: run `npm run build` first (npm run build:server does).");
  process.exit(1);
}

/** Only an empty folder or an earlier build is replaced, never a folder that holds something else. */
function isReplaceable(dir) {
  if (!existsSync(dir) || readdirSync(dir).length === 0) return true;
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === "palisade-server";
  } catch {
    return false;
  }
}
if (!isReplaceable(out)) {
  console.error(`${out} is neither empty nor an earlier server build: choose another --out.`);
  process.exit(1);
}

const started = performance.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: { main: "apps/server/src/main.ts", sandbox: "packages/sandbox-cloud/src/cli.ts" },
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  external: [...RUNTIME_PACKAGES, ...NEVER_INSTALLED],
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  legalComments: "linked",
  logLevel: "warning",
  plugins: [relocate],
});

cpSync(join(root, "apps/server/src/db/migrations"), join(out, "migrations"), { recursive: true });
cpSync(webDist, join(out, "web"), { recursive: true });
const engine = join(root, "packages/policy-engine");
cpSync(join(engine, "catalogue"), join(out, "policy-engine/catalogue"), { recursive: true });
cpSync(join(engine, "package.json"), join(out, "policy-engine/package.json"));
mkdirSync(join(out, "policy-engine/src/catalogue"), { recursive: true });
for (const name of readdirSync(join(engine, "src/catalogue"))) {
  if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
    cpSync(join(engine, "src/catalogue", name), join(out, "policy-engine/src/catalogue", name));
  }
}

writeRuntimeManifest();
if (options.install) {
  execFileSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: out,
    stdio: "inherit",
  });
}
console.log(
  `Server built into ${relative(process.cwd(), out) || "."} in ${Math.round(performance.now() - started)} ms`,
);

/**
 * package.json and package-lock.json for the unbundled packages, at the versions (and integrity)
 * the repository's lockfile pins, so `npm ci --omit=dev` installs exactly what was tested.
 */
function writeRuntimeManifest() {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const packages = {};
  const queue = [...RUNTIME_PACKAGES];
  while (queue.length > 0) {
    const name = queue.shift();
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`${name} is not at the top of package-lock.json`);
    packages[key] = entry;
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  const dependencies = Object.fromEntries(
    RUNTIME_PACKAGES.map((name) => [name, packages[`node_modules/${name}`].version]),
  );
  const manifest = {
    name: "palisade-server",
    private: true,
    type: "module",
    engines: { node: ">=24" },
    scripts: { start: "node main.mjs", sandbox: "node sandbox.mjs" },
    dependencies,
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const runtimeLock = {
    name: manifest.name,
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: manifest.name, dependencies }, ...packages },
  };
  writeFileSync(join(out, "package-lock.json"), `${JSON.stringify(runtimeLock, null, 2)}\n`);
}
