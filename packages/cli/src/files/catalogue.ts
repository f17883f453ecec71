import { type Catalogue, parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { CommandFailed } from "../usage";
import { checkFolder } from "./check-folder";
import type { Problem } from "./problems";
import { formatProblem } from "./problems";
import { type Folder, readFolder } from "./read-files";

let cached: Catalogue | undefined;

/** The policy catalogue shipped with the tool (packages/policy-engine/catalogue). */
export function shippedCatalogue(): Catalogue {
  cached ??= parseCatalogue(readCatalogueFiles());
  return cached;
}

/** Reads and checks a folder; every problem of it, in file order. */
export function loadFolder(dir: string, now = new Date()): { folder: Folder; problems: Problem[] } {
  const folder = readFolder(dir);
  const problems = [...folder.problems, ...checkFolder(folder, shippedCatalogue(), now)];
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { folder, problems };
}

/** The folder, or a failure listing every problem (for plan and apply, which need valid files). */
export function loadValidFolder(dir: string): Folder {
  const { folder, problems } = loadFolder(dir);
  if (problems.length > 0) {
    throw new CommandFailed(
      `${problems.length} problem(s) in ${dir}; fix them (palisade validate ${dir} lists them):\n${problems.map(formatProblem).join("\n")}`,
    );
  }
  return folder;
}
