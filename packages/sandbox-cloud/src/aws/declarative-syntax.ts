import {
  DeclarativeSyntaxError,
  validateDeclarativeContent as validateDocument,
} from "@palisade/policy-engine/evaluators/declarative/declarative-syntax";
import { AwsError } from "./common";

export { EXCEPTION_MESSAGE_MAX } from "@palisade/policy-engine/evaluators/declarative/declarative-syntax";

/**
 * Validates a DECLARATIVE_POLICY_EC2 document with the syntax Palisade compiles to and throws the
 * error Organizations answers (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
 */
export function validateDeclarativeContent(content: string): void {
  try {
    validateDocument(content);
  } catch (error) {
    if (!(error instanceof DeclarativeSyntaxError)) throw error;
    throw new AwsError(
      "MalformedPolicyDocumentException",
      error.notJson
        ? "The provided policy document is not valid JSON."
        : `The provided policy document does not meet the requirements of the specified policy type. ${error.where}: ${error.what}`,
    );
  }
}
