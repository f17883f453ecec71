import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";

let cached: AliasTable | undefined;

/** The catalogue's alias table (resource type -> alias -> ARM JSON path), read once. */
export async function loadAliasTable(): Promise<AliasTable> {
  if (!cached) {
    const files = readCatalogueFiles().filter((f) => /(?:^|\/)azure-aliases\.ya?ml$/.test(f.path));
    cached = parseCatalogue(files).aliases as AliasTable;
  }
  return cached;
}
