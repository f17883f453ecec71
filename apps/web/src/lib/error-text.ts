import { productErrorTextOf } from "./product-error-text";
import { unexpectedErrorMessage } from "./request-limits";
import { RpcError } from "./rpc-error";

interface Issue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
}

// Checked by shape so that screens shown on every page do not pull the Connect runtime into the first load.
function isConnectError(error: unknown): error is Error & { rawMessage: string; code: number } {
  return error instanceof Error && error.name === "ConnectError" && "rawMessage" in error;
}

/** The Connect code (by number, as `ConnectError.code` holds it) of a signed-in page's RPC failure. */
export function connectCodeOf(error: unknown): number | undefined {
  return isConnectError(error) && typeof error.code === "number" ? error.code : undefined;
}

export function isServerError(error: unknown): boolean {
  return isConnectError(error) || error instanceof RpcError;
}

function issuesOf(error: Error): Issue[] | null {
  const cause: unknown = error.cause;
  if (cause && typeof cause === "object" && "issues" in cause && Array.isArray(cause.issues)) {
    return cause.issues.filter((i: unknown): i is Issue => !!i && typeof i === "object" && "message" in i);
  }
  return null;
}

function issueText(issue: Issue): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p));
  // The redirect rule's own message already says what is wrong; a field path adds nothing for it.
  if (issue.message === "Invalid path format" || path.length === 0) return issue.message;
  return `${path.join(".")}: ${issue.message}`;
}

/** The text a person sees for an error: the server's message, the failed rule, or a generic line. */
export function errorText(error: unknown): string {
  if (isConnectError(error)) return error.rawMessage || unexpectedErrorMessage;
  if (error instanceof Error) {
    const issues = issuesOf(error);
    if (issues && issues.length > 0) return issues.map(issueText).join("; ");
    return error.message || unexpectedErrorMessage;
  }
  if (typeof error === "string" && error) return error;
  return unexpectedErrorMessage;
}

/**
 * Title and message of the generic error dialog; a failure with a product error code says what
 * happened and what to do, followed by the server's own words.
 */
export function describeError(error: unknown): { title: string; message: string } {
  const product = productErrorTextOf(error);
  if (product) return { title: product.title, message: `${product.message} ${errorText(error)}` };
  return {
    title: isServerError(error) ? "Operation Failed" : "Unexpected Error",
    message: errorText(error),
  };
}
