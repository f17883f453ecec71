import { Code, ConnectError } from "@connectrpc/connect";
import type { PolicyDefinition } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { parseSubmittedDefinition } from "@palisade/policy-engine/catalogue/submitted-definition";
import type { Database } from "../../db/database";
import { invalidArgument, invalidField } from "../../rpc/errors";
import { definitionDocument } from "./definition-message";
import { readingUrlProblem } from "./reading-url";
import { loadTenantCatalogue, type TenantCatalogue, type TenantDefinition } from "./tenant-catalogue";

/** A definition is a few kilobytes; this leaves room for large trees and descriptions. */
const MAX_DEFINITION_BYTES = 256 * 1024;

export interface PolicyDefinitionServiceDeps {
  db: Database;
  catalogue: Catalogue;
}

export function tenantView(deps: PolicyDefinitionServiceDeps, tenantId: string): Promise<TenantCatalogue> {
  return loadTenantCatalogue(deps.db, deps.catalogue, tenantId);
}

/** What lists show: hidden definitions are found by slug only. */
export function visibleDefinitions(view: TenantCatalogue): TenantDefinition[] {
  return view.definitions.filter((entry) => entry.definition.is_visible);
}

export function definitionNotFound(slug: string): ConnectError {
  return new ConnectError(`No policy definition with slug "${slug}".`, Code.NotFound);
}

/** The submitted definition in the catalogue's format. */
export function submittedDocument(definition: PolicyDefinition | undefined): Record<string, unknown> {
  if (!definition) throw invalidField("policy_definition", "required.");
  return definitionDocument(definition);
}

/**
 * Checks a definition with the catalogue's rules, against everything the tenant can refer to.
 * `fieldPrefix` is where the definition's fields sit in the request ("policy_definition.").
 */
export function checkDefinition(
  catalogue: Catalogue,
  document: Record<string, unknown>,
  view: TenantCatalogue,
  fieldPrefix: string,
): Definition {
  if (JSON.stringify(document).length > MAX_DEFINITION_BYTES) {
    throw invalidField("policy_definition", `at most ${MAX_DEFINITION_BYTES / 1024} KB of JSON.`);
  }
  const urls = Array.isArray(document.further_reading_urls) ? document.further_reading_urls : [];
  const urlProblems = urls.flatMap((url: { href?: unknown }, i) => {
    const problem = readingUrlProblem(typeof url?.href === "string" ? url.href : "");
    return problem ? [{ field: `${fieldPrefix}further_reading_urls[${i}].href`, message: problem }] : [];
  });
  const [firstUrlProblem] = urlProblems;
  if (firstUrlProblem) {
    throw invalidArgument(`${firstUrlProblem.field}: ${firstUrlProblem.message}`, urlProblems);
  }
  const result = parseSubmittedDefinition(document, {
    frameworks: catalogue.frameworks,
    aliases: catalogue.aliases,
    definitions: new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition])),
  });
  if (!result.ok) {
    const problems = result.problems.map((problem) =>
      problem.field ? `${problem.field}: ${problem.message}` : problem.message,
    );
    const fields = result.problems.flatMap((problem) =>
      problem.field ? [{ field: `${fieldPrefix}${problem.field}`, message: problem.message }] : [],
    );
    throw invalidArgument(`Invalid policy definition: ${problems.join("; ")}`, fields);
  }
  return result.definition;
}
