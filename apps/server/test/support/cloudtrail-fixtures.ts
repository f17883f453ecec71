import { readFileSync } from "node:fs";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import type { CloudTrailRecord } from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import { actionOf } from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import type { AuditRecord } from "../../src/cloud/cloud-provider";

/** The records in test/fixtures/cloudtrail, written from AWS's documentation (see its README). */
export const CLOUDTRAIL_FIXTURES = {
  s3PabDenied: "s3-put-account-public-access-block-scp-denied.json",
  ec2RunInstancesDenied: "ec2-run-instances-unauthorized-operation.json",
  s3PabWaived: "s3-put-account-public-access-block-waived.json",
  ec2RunInstancesAllowed: "ec2-run-instances-allowed-without-resources.json",
  iamCreateUserDenied: "iam-create-user-access-denied.json",
  kmsDeleteDenied: "kms-schedule-key-deletion-access-denied-exception.json",
  guardDutyDeniedUnnamed: "guardduty-delete-detector-denied-without-policy-arn.json",
} as const;
export type FixtureName = keyof typeof CLOUDTRAIL_FIXTURES;

export function fixtureRecord(name: FixtureName): CloudTrailRecord & { eventID: string } {
  const url = new URL(`../fixtures/cloudtrail/${CLOUDTRAIL_FIXTURES[name]}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8"));
}

/** The record as an organisation trail's reader hands it on: `raw` is the record itself. */
export function fixtureAudit(
  name: FixtureName,
  change: Partial<CloudTrailRecord & { eventID: string }> = {},
): AuditRecord {
  const record = { ...fixtureRecord(name), ...change };
  return {
    id: record.eventID,
    time: new Date(record.eventTime ?? 0),
    action: actionOf(record),
    principal: record.userIdentity?.arn,
    scopeId: record.recipientAccountId,
    errorCode: record.errorCode,
    errorMessage: record.errorMessage,
    raw: record,
  };
}

/** The record as LookupEvents answers it: the record's JSON in `CloudTrailEvent`. */
export function lookupEventsAudit(name: FixtureName): AuditRecord {
  const audit = fixtureAudit(name);
  return { ...audit, raw: { EventId: audit.id, CloudTrailEvent: JSON.stringify(audit.raw) } };
}

let catalogue: Map<string, Definition> | undefined;
export function catalogueDefinitions(): Map<string, Definition> {
  catalogue ??= new Map(parseCatalogue(readCatalogueFiles()).definitions.map((d) => [d.slug, d]));
  return catalogue;
}

/** A catalogue guardrail compiled as it deploys (PREVENT, default parameters unless given). */
export function catalogueScp(slug: string, parameters: Record<string, unknown> = {}, id = slug): ScpPolicy {
  const definitions = catalogueDefinitions();
  const definition = definitions.get(slug);
  if (!definition) throw new Error(`no catalogue definition ${slug}`);
  const compiled = compileScp({
    definition,
    definitions,
    parameters,
    mode: "PREVENT",
    key: "KEY0001",
    name: slug,
    scopes: [{ id: "r-root" }],
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "",
    now: new Date("2026-06-01T00:00:00Z"),
  });
  return { id, arn: "", name: compiled.name, document: compiled.content };
}
