import {
  type Catalogue,
  CatalogueError,
  parseCatalogue,
} from "@palisade/policy-engine/catalogue/parse-catalogue";
import { CATALOGUE_DIR, readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";

/**
 * Reads and validates the policy catalogue once, at start-up. Bundles are compiled from it, so a
 * catalogue with any mistake stops the server with the file and the field at fault.
 */
export function loadCatalogue(directory: string = CATALOGUE_DIR): {
  catalogue: Catalogue;
  milliseconds: number;
} {
  const started = performance.now();
  try {
    const catalogue = parseCatalogue(readCatalogueFiles(directory));
    return { catalogue, milliseconds: Math.round(performance.now() - started) };
  } catch (error) {
    if (error instanceof CatalogueError) {
      throw new Error(`The policy catalogue is invalid: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
