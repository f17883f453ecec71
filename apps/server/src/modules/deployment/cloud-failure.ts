import { CompileError } from "@palisade/policy-engine/compilers/compile-input";
import { errorCode, errorMessage, errorStatus, isUnreachable } from "../../cloud/errors";
import { describeCloudFailure, SandboxNotRunningError, signInFailure } from "../connector/connector-api";

/** Product error codes (spec section 8) a deployment or a waiver can fail with. */
export type DeploymentErrorCode =
  | "DEPLOYMENT_SYNC_FAILED"
  | "POLICY_LIMIT_EXCEEDED"
  | "CLOUD_SUBSCRIPTION_DISABLED"
  | "CREATE_RESOURCE_FAILED"
  | "DELETE_RESOURCE_FAILED"
  | "CLOUD_INVALID_SCOPE"
  | "CREATE_POLICY_PROVIDER_FAILED";

export type WaiverErrorCode =
  | "WAIVER_CREATION_FAILED"
  | "WAIVER_DELETION_FAILED"
  | "WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE"
  | "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE"
  | "EXEMPTIONS_LIMIT_EXCEEDED"
  | "PARSE_WAIVER_SCOPE_FAILED"
  | "POLICY_LIMIT_EXCEEDED";

/** What a step of a deployment was doing when the cloud refused it. */
export type CloudStep = "policy" | "attach" | "detach" | "delete";

export interface Failure<C extends string> {
  code: C;
  message: string;
}

/**
 * Throttling and unreachable endpoints pass with time: the job retries the whole step with
 * backoff instead of recording a failure.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof SandboxNotRunningError) return true;
  if (isUnreachable(error)) return true;
  const code = errorCode(error);
  const status = errorStatus(error);
  return (
    /Throttl|TooManyRequests|ServiceUnavailable|ConcurrentModification|PolicyChangesInProgress|InternalFailure|ServiceException/.test(
      code,
    ) ||
    status === 429 ||
    (status !== undefined && status >= 500)
  );
}

/** A bundle that cannot be compiled; the message names what to change. */
export function compileFailure(error: CompileError): Failure<DeploymentErrorCode> {
  switch (error.code) {
    case "POLICY_LIMIT_EXCEEDED":
      return { code: "POLICY_LIMIT_EXCEEDED", message: error.message };
    case "CLOUD_INVALID_SCOPE":
      return {
        code: "CLOUD_INVALID_SCOPE",
        message: `${error.message}. Choose scopes within one subscription, or the management group that holds them, or create a bundle for each subscription.`,
      };
    default:
      return {
        code: "CREATE_POLICY_PROVIDER_FAILED",
        message: `The policy could not be turned into a cloud policy: ${error.message}. Check the bundle's parameters.`,
      };
  }
}

/** A cloud refusal, as a deployment error code and a sentence saying what to do. */
export function cloudFailure(error: unknown, step: CloudStep, scope?: string): Failure<DeploymentErrorCode> {
  const code = errorCode(error);
  const status = errorStatus(error);
  const text = errorMessage(error);
  const where = scope ? ` on ${scope}` : "";
  const signIn = signInFailure(error);
  if (signIn) {
    return {
      code: "DEPLOYMENT_SYNC_FAILED",
      message: `Palisade could not sign in to the cloud: ${signIn} What the cloud holds is unchanged; Reconcile tries again within 5 minutes.`,
    };
  }
  if (isTransient(error)) {
    return {
      code: "DEPLOYMENT_SYNC_FAILED",
      message: `The cloud could not be reached or kept throttling${where} through every retry: ${describeCloudFailure(error)} Reconcile tries again within 5 minutes; Sync tries now.`,
    };
  }
  const reason = String((error as { Reason?: unknown } | undefined)?.Reason ?? "");
  if (
    /LIMIT_EXCEEDED/.test(reason) ||
    (code === "ConstraintViolationException" && /limit|maximum/i.test(text))
  ) {
    return {
      code: "POLICY_LIMIT_EXCEEDED",
      message: `AWS Organizations refused the policy${where}: ${text}. Remove another service control policy from that target, or deploy to a different scope.`,
    };
  }
  if (
    /TargetNotFound|SubscriptionNotFound|ManagementGroupNotFound|InvalidScope|ResourceGroupNotFound/.test(
      code,
    )
  ) {
    return {
      code: "CLOUD_INVALID_SCOPE",
      message: `The scope${where} does not exist in the cloud any more (${code}). Sync the connector's hierarchy and update the bundle's scopes.`,
    };
  }
  if (/Disabled|Warned|ReadOnly/.test(code) || /subscription .*disabled/i.test(text)) {
    return {
      code: "CLOUD_SUBSCRIPTION_DISABLED",
      message: `The subscription${where} is disabled or read-only (${code || status}); re-enable it, then sync the bundle.`,
    };
  }
  const described = describeCloudFailure(error);
  if (step === "delete" || step === "detach") {
    return {
      code: "DELETE_RESOURCE_FAILED",
      message: `Removing the policy${where} failed: ${described}`,
    };
  }
  if (step === "policy") {
    return {
      code: "CREATE_POLICY_PROVIDER_FAILED",
      message: `Creating the policy in the cloud failed: ${described}`,
    };
  }
  return { code: "CREATE_RESOURCE_FAILED", message: `Applying the policy${where} failed: ${described}` };
}

/** Why a waiver could not be placed in the cloud (Azure exemption). */
export function waiverFailure(error: unknown): WaiverErrorCode {
  if (error instanceof CompileError) {
    if (error.code === "POLICY_LIMIT_EXCEEDED") return "POLICY_LIMIT_EXCEEDED";
    if (error.code === "PARSE_WAIVER_SCOPE_FAILED") return "PARSE_WAIVER_SCOPE_FAILED";
    if (error.code === "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE")
      return "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE";
    return "WAIVER_CREATION_FAILED";
  }
  const code = errorCode(error);
  const status = errorStatus(error);
  if (/Quota|LimitExceeded|TooManyExemptions/.test(code)) return "EXEMPTIONS_LIMIT_EXCEEDED";
  if (/NotFound/.test(code) || status === 404) return "WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE";
  if (/AuthorizationFailed|Forbidden|InvalidScope/.test(code) || status === 403)
    return "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE";
  return "WAIVER_CREATION_FAILED";
}

const RANK: Record<string, number> = {
  FAILED: 5,
  PENDING: 4,
  DELETING: 4,
  EVALUATING: 3,
  PROPAGATING: 2,
  DEPLOYED: 1,
};

/** A bundle's status: the worst of its live deployments; DELETED when none is left. */
export function bundleStatus(statuses: readonly string[]): string {
  const live = statuses.filter((status) => status !== "DELETED");
  if (live.length === 0) return "DELETED";
  const worst = live.reduce((a, b) => ((RANK[b] ?? 0) > (RANK[a] ?? 0) ? b : a));
  return worst === "DELETING" ? "PENDING" : worst;
}
