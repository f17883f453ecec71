import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { validateBundleParameters } from "@palisade/policy-engine/compilers/tree";
import type { Problem } from "./problems";
import type { Folder, LoadedFile } from "./read-files";
import type { BundleFile, WaiverFile } from "./schemas";

// What `validate` checks beyond each file's schema, offline: the catalogue's slugs and parameter
// types, scope syntax and the cloud of each scope, waivers fitting their bundle, expiry bounds and
// the limits the server enforces where the folder tells enough to know them.

/** The contract's longest waiver (TenantSettings.max_waiver_duration_hours). */
export const CONTRACT_MAX_WAIVER_HOURS = 72;
/** Open waivers per deployment the server accepts. */
const MAX_OPEN_WAIVERS_PER_DEPLOYMENT = 50;
const MAX_REASON_CHARACTERS = 220;

const AWS_SCOPE = [/^r-[0-9a-z]{4,32}$/, /^ou-[0-9a-z]{4,32}-[0-9a-z]{8,32}$/, /^\d{12}$/];
const AZURE_SCOPE = [
  /^\/providers\/Microsoft\.Management\/managementGroups\/[^/]+$/i,
  /^\/subscriptions\/[^/]+$/i,
  /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+$/i,
];
const AWS_PRINCIPAL = /^arn:aws[a-z-]*:(iam|sts)::\d{12}:[^\s]+$/;

export type Provider = "aws" | "azure";

export function providerOfScope(externalId: string): Provider | undefined {
  if (AWS_SCOPE.some((pattern) => pattern.test(externalId))) return "aws";
  if (AZURE_SCOPE.some((pattern) => pattern.test(externalId))) return "azure";
  return undefined;
}

const SCOPE_FORMS = {
  aws: "an AWS root (r-…), OU (ou-…-…) or 12-digit account id",
  azure:
    "an Azure /providers/Microsoft.Management/managementGroups/<id>, /subscriptions/<id> or /subscriptions/<id>/resourceGroups/<name>",
} as const;

/** Whether an Azure id lies within another (same id, or below it in the path). */
function azureWithin(inner: string, outer: string): boolean {
  const a = inner.toLowerCase();
  const b = outer.toLowerCase();
  return a === b || a.startsWith(`${b}/`);
}

function characterCount(text: string): number {
  return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;
}

function checkBundle(file: LoadedFile<BundleFile>, catalogue: Catalogue, problems: Problem[]) {
  const at = (path: (string | number)[], message: string) =>
    problems.push({
      file: file.path,
      line: file.lineOf(path),
      field: path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join(""),
      message,
    });
  const bundle = file.value;
  const definition = catalogue.bySlug.get(bundle.policy);
  if (!definition) {
    at(
      ["policy"],
      `${bundle.policy} is not a policy of the catalogue (see docs/catalogue.md for the slugs).`,
    );
    return;
  }
  for (const error of validateBundleParameters(definition, bundle.parameters ?? {})) {
    at(error.field.split("."), error.message);
  }
  const provider: Provider = providerOfEnforcer(definition.enforcer);
  const seen = new Set<string>();
  const lists = [
    ["scopes", bundle.scopes],
    ["excluded_scopes", bundle.excluded_scopes ?? []],
  ] as const;
  for (const [field, scopes] of lists) {
    scopes.forEach((scope, i) => {
      const of = providerOfScope(scope);
      if (!of) at([field, i], `${scope} is not ${SCOPE_FORMS[provider]}.`);
      else if (of !== provider)
        at(
          [field, i],
          `${scope} is an ${of.toUpperCase()} scope, but ${bundle.policy} is a policy for ${provider.toUpperCase()}.`,
        );
      else if (seen.has(scope.toLowerCase()))
        at([field, i], `${scope} is listed twice (a scope is either a target or excluded).`);
      seen.add(scope.toLowerCase());
    });
  }
}

function checkWaiver(
  file: LoadedFile<WaiverFile>,
  bundles: ReadonlyMap<string, LoadedFile<BundleFile>>,
  catalogue: Catalogue,
  maxHours: number,
  now: Date,
  problems: Problem[],
) {
  const at = (field: string, message: string) =>
    problems.push({ file: file.path, line: file.lineOf(field.split(".")), field, message });
  const waiver = file.value;
  const bundle = bundles.get(waiver.bundle);
  if (!bundle) at("bundle", `no Bundle file of the folder is named "${waiver.bundle}".`);
  const targets = (["scope", "principal", "resource"] as const).filter((k) => waiver[k] !== undefined);
  if (targets.length !== 1) {
    at(targets[1] ?? "scope", "name exactly one of scope, principal or resource.");
  }
  const definition = bundle && catalogue.bySlug.get(bundle.value.policy);
  const provider = definition ? providerOfEnforcer(definition.enforcer) : undefined;
  if (waiver.scope !== undefined) {
    const of = providerOfScope(waiver.scope);
    if (!of) at("scope", `${waiver.scope} is neither an AWS nor an Azure scope id.`);
    else if (provider && of !== provider)
      at(
        "scope",
        `${waiver.scope} is an ${of.toUpperCase()} scope, outside bundle "${waiver.bundle}" (${provider.toUpperCase()}).`,
      );
    else if (
      bundle &&
      of === "azure" &&
      !bundle.value.scopes.some((scope) => azureWithin(waiver.scope as string, scope)) &&
      // Below a management group the hierarchy decides; the server checks it.
      !bundle.value.scopes.some((scope) => /managementGroups/i.test(scope))
    )
      at(
        "scope",
        `${waiver.scope} lies outside the scopes of bundle "${waiver.bundle}"; a waiver applies within them.`,
      );
  }
  if (waiver.principal !== undefined) {
    if (!AWS_PRINCIPAL.test(waiver.principal))
      at("principal", `${waiver.principal} is not an IAM role or user ARN.`);
    else if (provider === "azure")
      at("principal", `bundle "${waiver.bundle}" is an Azure policy; principals are AWS only.`);
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(waiver.requester.email)) at("requester.email", "is not an e-mail address.");
  if (characterCount(waiver.reason) > MAX_REASON_CHARACTERS)
    at("reason", `at most ${MAX_REASON_CHARACTERS} characters.`);
  const expires = new Date(waiver.expires);
  if (!/(Z|[+-]\d\d:?\d\d)$/.test(waiver.expires) || Number.isNaN(expires.getTime())) {
    at("expires", `${waiver.expires} is not an ISO 8601 time with a time zone, e.g. 2030-01-31T17:00:00Z.`);
  } else if (expires.getTime() > now.getTime() + maxHours * 3_600_000) {
    at("expires", `is more than ${maxHours} hours from now, the tenant's longest waiver.`);
  }
}

/** Every problem of the folder, beyond each file's schema; `now` bounds the waivers' expiry. */
export function checkFolder(folder: Folder, catalogue: Catalogue, now = new Date()): Problem[] {
  const problems: Problem[] = [];
  const byName = new Map<string, LoadedFile<BundleFile>>();
  for (const file of folder.bundles) {
    const other = byName.get(file.value.name);
    if (other) {
      problems.push({
        file: file.path,
        line: file.lineOf(["name"]),
        field: "name",
        message: `"${file.value.name}" is also the name of ${other.path}; bundle names are unique.`,
      });
    } else byName.set(file.value.name, file);
    checkBundle(file, catalogue, problems);
  }
  const maxHours = folder.tenantSettings?.value.max_waiver_duration_hours ?? CONTRACT_MAX_WAIVER_HOURS;
  const perBundle = new Map<string, number>();
  for (const file of folder.waivers) {
    checkWaiver(file, byName, catalogue, maxHours, now, problems);
    const count = (perBundle.get(file.value.bundle) ?? 0) + 1;
    perBundle.set(file.value.bundle, count);
    if (count === MAX_OPEN_WAIVERS_PER_DEPLOYMENT + 1) {
      problems.push({
        file: file.path,
        line: file.lineOf(["bundle"]),
        field: "bundle",
        message: `more than ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} waivers for "${file.value.bundle}"; the server accepts at most ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} open ones per scope.`,
      });
    }
  }
  return problems;
}
