import { header, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { StateStore } from "../state/store";
import { handleCloudTrail } from "./cloudtrail";
import { AwsError, authenticateAws, awsJson, awsJsonError } from "./common";
import { handleOrganizations } from "./organizations";
import type { createOrganizationsFaults } from "./organizations-faults";
import { handleSts, stsError } from "./sts";

export type ThrottledService = "organizations" | "sts" | "cloudtrail" | "arm";

export interface AwsServiceControls {
  throttle: Map<ThrottledService, number>;
  organizationsFaults: ReturnType<typeof createOrganizationsFaults>;
  withinLookupRate: Parameters<typeof handleCloudTrail>[4];
}

function takeThrottle(throttle: Map<ThrottledService, number>, service: ThrottledService): boolean {
  const left = throttle.get(service) ?? 0;
  if (left <= 0) return false;
  throttle.set(service, left - 1);
  return true;
}

export function createAwsServices(store: StateStore, controls: AwsServiceControls) {
  const { throttle, organizationsFaults, withinLookupRate } = controls;
  /** The query (STS) and JSON (Organizations, CloudTrail) services; others are answered as unknown. */
  return (req: SandboxRequest, scoped: string): SandboxResponse => {
    const target = header(req, "x-amz-target") ?? "";
    const isQuery = !target && (header(req, "content-type") ?? "").includes("x-www-form-urlencoded");
    const isSts = scoped === "sts";
    const fail = (err: AwsError) => (isQuery ? stsError(err) : awsJsonError(err));
    if (!["sts", "organizations", "cloudtrail"].includes(scoped)) {
      return fail(
        isQuery
          ? new AwsError("InvalidAction", `The sandbox does not serve the service '${scoped}'.`)
          : new AwsError("UnknownOperationException", `The sandbox does not serve the service '${scoped}'.`),
      );
    }
    const service = scoped as ThrottledService;
    try {
      if (takeThrottle(throttle, service)) {
        throw service === "organizations"
          ? new AwsError(
              "TooManyRequestsException",
              "You have sent too many requests in too short a period of time. The quota helps protect against denial-of-service attacks. Try again later.",
              400,
              { Type: "AWSOrganizations" },
            )
          : service === "sts"
            ? new AwsError("Throttling", "Rate exceeded", 400)
            : new AwsError("ThrottlingException", "Rate exceeded", 400);
      }
      const caller = authenticateAws(store.state.aws, req, new Date(), isQuery ? "query" : "json");
      if (caller instanceof AwsError) throw caller;
      if (isSts) return handleSts(store, caller, new URLSearchParams(req.body.toString()), req.secure);
      const action = target.slice(target.lastIndexOf(".") + 1);
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(req.body.toString() || "{}") as Record<string, unknown>;
      } catch {
        throw new AwsError("SerializationException", "The request body is not valid JSON.");
      }
      if (service === "organizations") {
        const fault = organizationsFaults.take(action);
        if (fault) throw fault;
        return awsJson(handleOrganizations(store, caller, action, input));
      }
      if (!/CloudTrail_20131101\./.test(target))
        throw new AwsError("UnknownOperationException", `Unknown target ${target}.`);
      return awsJson(handleCloudTrail(store, caller, action, input, withinLookupRate));
    } catch (err) {
      if (err instanceof AwsError) return fail(err);
      throw err;
    }
  };
}
