import {
  type OrganizationPolicyKind,
  validateScpDocument,
} from "@palisade/policy-engine/evaluators/scp/validate-scp-document";
import { AwsError, page } from "./common";

/**
 * Characters an SCP or an RCP may hold: 10,240 and 5,120 ("Maximum size of a policy document",
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-values;
 * the SCP size was 5,120 until 15 May 2026).
 */
const MAX_CHARS: Readonly<Record<OrganizationPolicyKind, number>> = { scp: 10_240, rcp: 5120 };
const PAGE_MAX = 20;

export type OrganizationsInput = Record<string, unknown>;

export const str = (input: OrganizationsInput, key: string): string | undefined =>
  typeof input[key] === "string" ? (input[key] as string) : undefined;

export function required(input: OrganizationsInput, key: string): string {
  const v = str(input, key);
  if (!v)
    throw new AwsError(
      "InvalidInputException",
      `You provided a value that does not match the required pattern for ${key}.`,
      400,
      { Reason: "INPUT_REQUIRED" },
    );
  return v;
}

function paging(input: OrganizationsInput) {
  return {
    NextToken: str(input, "NextToken"),
    MaxResults: typeof input.MaxResults === "number" ? input.MaxResults : undefined,
  };
}

export function paged<T>(items: T[], input: OrganizationsInput, key: string) {
  const p = page(items, paging(input), { max: PAGE_MAX, invalidCode: "InvalidInputException" });
  return p.nextToken ? { [key]: p.items, NextToken: p.nextToken } : { [key]: p.items };
}

/** Checks an SCP's or an RCP's size (MAX_CHARS) and grammar. */
export function validateScpContent(content: string, kind: OrganizationPolicyKind = "scp") {
  if (content.length > MAX_CHARS[kind]) {
    throw new AwsError(
      "ConstraintViolationException",
      `You have exceeded the maximum size of a policy document (${MAX_CHARS[kind]} characters).`,
      400,
      { Reason: "POLICY_CONTENT_LIMIT_EXCEEDED" },
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    throw new AwsError("MalformedPolicyDocumentException", "The provided policy document is not valid JSON.");
  }
  const result = validateScpDocument(doc, kind);
  if (!result.valid) {
    const first = result.errors[0];
    throw new AwsError(
      "MalformedPolicyDocumentException",
      `The provided policy document does not meet the requirements of the specified policy type. ${first ? `${first.path}: ${first.message}` : ""}`.trim(),
    );
  }
}
