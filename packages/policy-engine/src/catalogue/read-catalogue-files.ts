import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogueFile } from "./parse-catalogue";

/** The catalogue shipped with this package. */
export const CATALOGUE_DIR = fileURLToPath(new URL("../../catalogue", import.meta.url));

/**
 * The only module of the package that touches the disk: reads every YAML file under the catalogue
 * directory, with paths relative to the package root (`catalogue/definitions/aws/x.yaml`) so errors
 * name files as reviewers see them.
 */
export function readCatalogueFiles(directory: string = CATALOGUE_DIR): CatalogueFile[] {
  const root = join(directory, "..");
  const files: CatalogueFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry.name)) {
        files.push({ path: relative(root, full).split(sep).join("/"), text: readFileSync(full, "utf8") });
      }
    }
  };
  walk(directory);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
