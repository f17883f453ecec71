import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { AliasFile, Framework } from "@palisade/policy-engine/catalogue/framework-schema";
import {
  type Catalogue,
  CatalogueError,
  type CatalogueFile,
  parseCatalogue,
} from "@palisade/policy-engine/catalogue/parse-catalogue";
import { CATALOGUE_DIR, readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";

/** The code that validates the catalogue: a change to it must invalidate a cached result too. */
const ENGINE_ROOT = join(CATALOGUE_DIR, "..");
const PARSER_DIR = join(ENGINE_ROOT, "src", "catalogue");

interface CachedCatalogue {
  definitions: Definition[];
  frameworks: Framework[];
  aliases: AliasFile;
}

function parserSources(): CatalogueFile[] {
  const names = readdirSync(PARSER_DIR)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort();
  return [
    ...names.map((name) => ({ path: name, text: readFileSync(join(PARSER_DIR, name), "utf8") })),
    // Pins the YAML and schema libraries' versions.
    { path: "package.json", text: readFileSync(join(ENGINE_ROOT, "package.json"), "utf8") },
  ];
}

function cacheKey(files: readonly CatalogueFile[]): string {
  const hash = createHash("sha256");
  for (const file of [...files, ...parserSources()]) hash.update(`${file.path}\0${file.text}\0`);
  return hash.digest("hex").slice(0, 32);
}

function fromCache(path: string): Catalogue | undefined {
  try {
    const cached = JSON.parse(readFileSync(path, "utf8")) as CachedCatalogue;
    return {
      ...cached,
      bySlug: new Map(cached.definitions.map((definition) => [definition.slug, definition])),
    };
  } catch {
    return undefined;
  }
}

/** The cache only saves time: failing to write it changes nothing else. */
function writeCache(cacheDir: string, key: string, catalogue: Catalogue): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const cached: CachedCatalogue = {
      definitions: catalogue.definitions,
      frameworks: catalogue.frameworks,
      aliases: catalogue.aliases,
    };
    const path = join(cacheDir, `catalogue-${key}.json`);
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(cached));
    renameSync(partial, path);
    for (const name of readdirSync(cacheDir)) {
      if (/^catalogue-[0-9a-f]+\.json$/.test(name) && name !== `catalogue-${key}.json`) {
        rmSync(join(cacheDir, name), { force: true });
      }
    }
  } catch {
    // Read-only or full disk: the next start parses again.
  }
}

export interface LoadedCatalogue {
  catalogue: Catalogue;
  milliseconds: number;
  /** Reused from an earlier start with the same files and the same validation code. */
  cached: boolean;
}

/**
 * Reads and validates the policy catalogue once, at start-up. Bundles are compiled from it, so a
 * catalogue with any mistake stops the server with the file and the field at fault.
 *
 * Parsing the YAML takes about a second for a hundred definitions, a large part of a restart; with
 * a cache directory, the validated result is kept under a hash of every catalogue file and of the
 * validating code, so a later start with identical input skips the work.
 */
export function loadCatalogue(options: { directory?: string; cacheDir?: string } = {}): LoadedCatalogue {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const files = readCatalogueFiles(options.directory ?? CATALOGUE_DIR);
  const key = options.cacheDir ? cacheKey(files) : undefined;
  if (options.cacheDir && key) {
    const catalogue = fromCache(join(options.cacheDir, `catalogue-${key}.json`));
    if (catalogue) return { catalogue, milliseconds: elapsed(), cached: true };
  }
  let catalogue: Catalogue;
  try {
    catalogue = parseCatalogue(files);
  } catch (error) {
    if (error instanceof CatalogueError) {
      throw new Error(`The policy catalogue is invalid: ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (options.cacheDir && key) writeCache(options.cacheDir, key, catalogue);
  return { catalogue, milliseconds: elapsed(), cached: false };
}
