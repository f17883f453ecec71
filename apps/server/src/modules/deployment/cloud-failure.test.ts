import { CompileError, PolicyLimitExceededError } from "@palisade/policy-engine/compilers/compile-input";
import { describe, expect, it } from "vitest";
import { bundleStatus, cloudFailure, compileFailure, isTransient, waiverFailure } from "./cloud-failure";

function awsError(name: string, message: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 }, ...extra });
}

function armError(code: string, statusCode: number, message = code) {
  return Object.assign(new Error(message), { code, statusCode });
}

describe("bundleStatus", () => {
  it.each([
    [["DEPLOYED", "DEPLOYED"], "DEPLOYED"],
    [["DEPLOYED", "EVALUATING"], "EVALUATING"],
    [["EVALUATING", "PENDING"], "PENDING"],
    [["DEPLOYED", "FAILED", "PENDING"], "FAILED"],
    [["DEPLOYED", "DELETING"], "PENDING"],
    [["DEPLOYED", "DELETED"], "DEPLOYED"],
    [["DELETED"], "DELETED"],
    [[], "DELETED"],
  ])("%j -> %s", (statuses, expected) => {
    expect(bundleStatus(statuses)).toBe(expected);
  });
});

describe("cloudFailure", () => {
  it.each([
    [
      awsError(
        "ConstraintViolationException",
        "You have attached the maximum number of policies of this type (5) to the target.",
        {
          Reason: "MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED",
        },
      ),
      "attach",
      "POLICY_LIMIT_EXCEEDED",
    ],
    [awsError("TargetNotFoundException", "no such target"), "attach", "CLOUD_INVALID_SCOPE"],
    [armError("SubscriptionNotFound", 404), "attach", "CLOUD_INVALID_SCOPE"],
    [armError("ReadOnlyDisabledSubscription", 409), "policy", "CLOUD_SUBSCRIPTION_DISABLED"],
    [awsError("AccessDeniedException", "not allowed"), "policy", "CREATE_POLICY_PROVIDER_FAILED"],
    [armError("AuthorizationFailed", 403), "attach", "CREATE_RESOURCE_FAILED"],
    [awsError("AccessDeniedException", "not allowed"), "delete", "DELETE_RESOURCE_FAILED"],
    [awsError("PolicyInUseException", "in use"), "detach", "DELETE_RESOURCE_FAILED"],
    [awsError("TooManyRequestsException", "slow down"), "policy", "DEPLOYMENT_SYNC_FAILED"],
    [
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      "attach",
      "DEPLOYMENT_SYNC_FAILED",
    ],
  ] as const)("%s while %s -> %s", (error, step, code) => {
    const failure = cloudFailure(error, step, "ou-abcd-12345678");
    expect(failure.code).toBe(code);
    expect(failure.message.length).toBeGreaterThan(20);
  });

  it("names the scope in the message", () => {
    expect(
      cloudFailure(awsError("TargetNotFoundException", "x"), "attach", "ou-abcd-12345678").message,
    ).toContain("ou-abcd-12345678");
  });

  it("names a refused credential, not the policy, as what stopped the sync", () => {
    // @azure/identity's AuthenticationError carries the token endpoint's answer
    // (https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes).
    const expired = Object.assign(new Error("ClientSecretCredential authentication failed."), {
      name: "AuthenticationError",
      statusCode: 401,
      errorResponse: {
        error: "invalid_client",
        errorDescription:
          "AADSTS7000222: The provided client secret keys for app '0000' are expired. Visit the Azure portal to create new keys for your app.",
      },
    });
    const failure = cloudFailure(expired, "policy");
    expect(failure.code).toBe("DEPLOYMENT_SYNC_FAILED");
    expect(failure.message).toMatch(
      /^Palisade could not sign in to the cloud: Client secret expired: create a new secret/,
    );
  });
});

describe("compileFailure", () => {
  it.each([
    [new PolicyLimitExceededError("too long", 5120, 6000), "POLICY_LIMIT_EXCEEDED"],
    [new CompileError("CLOUD_INVALID_SCOPE", "scopes in different subscriptions"), "CLOUD_INVALID_SCOPE"],
    [new CompileError("INVALID_PARAMETERS", "parameters.x: bad"), "CREATE_POLICY_PROVIDER_FAILED"],
  ] as const)("%s -> %s", (error, code) => {
    expect(compileFailure(error).code).toBe(code);
  });
});

describe("waiverFailure", () => {
  it.each([
    [new CompileError("PARSE_WAIVER_SCOPE_FAILED", "x"), "PARSE_WAIVER_SCOPE_FAILED"],
    [
      new CompileError("WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE", "x"),
      "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE",
    ],
    [new PolicyLimitExceededError("x", 5120, 6000), "POLICY_LIMIT_EXCEEDED"],
    [armError("ResourceNotFound", 404), "WAIVER_CREATION_FAILED_ON_NON_EXISTING_RESOURCE"],
    [armError("AuthorizationFailed", 403), "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE"],
    [armError("PolicyExemptionQuotaExceeded", 400), "EXEMPTIONS_LIMIT_EXCEEDED"],
    [armError("InvalidPolicyExemptionExpiresOn", 400), "WAIVER_CREATION_FAILED"],
  ] as const)("%s -> %s", (error, code) => {
    expect(waiverFailure(error)).toBe(code);
  });
});

describe("isTransient", () => {
  it.each([
    [awsError("TooManyRequestsException", "slow down"), true],
    [armError("TooManyRequests", 429), true],
    [Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), true],
    [armError("InternalServerError", 503), true],
    [awsError("AccessDeniedException", "no"), false],
    [armError("ResourceNotFound", 404), false],
  ])("%s -> %s", (error, transient) => {
    expect(isTransient(error)).toBe(transient);
  });
});
