import { providerOfEnforcer } from "../src/catalogue/definition-schema";
import { CatalogueError, folderOfEnforcer, parseCatalogue } from "../src/catalogue/parse-catalogue";
import { readCatalogueFiles } from "../src/catalogue/read-catalogue-files";
import { runCatalogueCases } from "../src/catalogue/run-cases";
import { CompileError } from "../src/compilers/compile-input";

try {
  const catalogue = parseCatalogue(readCatalogueFiles());
  const counts = new Map<string, number>();
  for (const definition of catalogue.definitions) {
    const provider = providerOfEnforcer(definition.enforcer);
    const key = `${provider}\t${definition.category}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.log("provider\tcategory\tdefinitions");
  for (const [key, count] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${key}\t${count}`);
  console.log(`total\t\t${catalogue.definitions.length}`);
  console.log(`frameworks\t\t${catalogue.frameworks.length}`);
  console.log(
    `azure aliases\t\t${Object.values(catalogue.aliases).reduce((n, a) => n + Object.keys(a).length, 0)}`,
  );

  const outcomes = runCatalogueCases(catalogue);
  const failed = outcomes.filter((outcome) => !outcome.passed);
  console.log(`cases\t\t${outcomes.length - failed.length}/${outcomes.length} passed`);
  for (const outcome of failed) {
    console.error(
      `catalogue/definitions/${folderOfEnforcer(catalogue.bySlug.get(outcome.slug)!.enforcer)}/${outcome.slug}.yaml: case "${outcome.caseName}" (${outcome.mode}) expected ${outcome.expect}, got ${outcome.actual}`,
    );
  }
  if (failed.length > 0) process.exit(1);
} catch (error) {
  if (!(error instanceof CatalogueError) && !(error instanceof CompileError)) throw error;
  console.error(error.message);
  process.exit(1);
}
