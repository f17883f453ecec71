import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { CompileBundleInput } from "@palisade/policy-engine/compilers/compile-input";

const NOW = new Date("2026-05-01T12:00:00Z");
const EXPIRES = new Date("2026-05-02T12:00:00Z");
const SUBSCRIPTION = "/subscriptions/6f1c2d3e-0000-4000-8000-00000000beef";

export interface CatalogueTiming {
  files: number;
  definitions: number;
  loadMs: number;
  firstCompileMs: number;
  compileMs: number;
}

/**
 * Loads the shipped catalogue and compiles every definition as a PREVENT bundle with default
 * parameters and one active waiver, the work a full redeploy does before calling the clouds.
 */
export function timeCatalogueCompile(runMs: number): CatalogueTiming {
  const loadStart = performance.now();
  const files = readCatalogueFiles();
  const catalogue = parseCatalogue(files);
  const loadMs = performance.now() - loadStart;

  const compileAll = () => {
    for (const definition of catalogue.definitions) {
      const aws = definition.enforcer === "aws_scp";
      const input: CompileBundleInput = {
        definition,
        parameters: {},
        mode: "PREVENT",
        key: "K7QW2XR",
        name: definition.display_name,
        scopes: [{ id: aws ? "ou-ab12-cdef3456" : SUBSCRIPTION }],
        excludedScopes: [],
        waivers: [
          aws
            ? {
                id: "w-1",
                key: "K7QW2XR",
                expiresAt: EXPIRES,
                principalArn: "arn:aws:iam::111122223333:role/DataScience",
              }
            : {
                id: "w-1",
                key: "K7QW2XR",
                expiresAt: EXPIRES,
                scope: `${SUBSCRIPTION}/resourceGroups/rg-sandbox`,
              },
        ],
        waiverLinkBaseUrl: "https://palisade.example",
        now: NOW,
        definitions: catalogue.bySlug,
      };
      if (aws) compileScp(input);
      else compileAzureBundle(input);
    }
  };

  const firstStart = performance.now();
  compileAll();
  const firstCompileMs = performance.now() - firstStart;

  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < runMs) {
    compileAll();
    runs++;
  }
  return {
    files: files.length,
    definitions: catalogue.definitions.length,
    loadMs,
    firstCompileMs,
    compileMs: (performance.now() - start) / runs,
  };
}
