import {
  type OrganizationPolicyKind,
  validateScpDocument,
} from "@palisade/policy-engine/evaluators/scp/validate-scp-document";
import { AwsError, page } from "./common";

export const SCP_MAX_CHARS = 5120;
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

/** SCPs and RCPs alike hold at most 5,120 characters (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html). */
export function validateScpContent(content: string, kind: OrganizationPolicyKind = "scp") {
  if (content.length > SCP_MAX_CHARS) {
    throw new AwsError(
      "ConstraintViolationException",
      `You have exceeded the maximum size of a policy document (${SCP_MAX_CHARS} characters).`,
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
