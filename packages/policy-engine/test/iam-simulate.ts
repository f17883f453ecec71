import { runSimulation } from "@cloud-copilot/iam-simulate";
import type { IamPolicyDocument } from "../src/evaluators/scp/iam-policy-document";

/**
 * An independent evaluator for the differential tests: @cloud-copilot/iam-simulate (AGPL), used by
 * tests only and never by the product.
 */

export type SimulatedOutcome = "Allowed" | "ExplicitlyDenied" | "ImplicitlyDenied";

/** The policies on one target of the organisation (root, OU or account), as the simulator takes them. */
export interface SimulatedLevel {
  orgIdentifier: string;
  policies: { name: string; policy: IamPolicyDocument }[];
}

export interface SimulatedRequest {
  principal: string;
  action: string;
  resource: string;
  resourceAccount: string;
  context: Record<string, string | string[]>;
  /** The SCPs in force for the caller, one entry per level of its account's path. */
  serviceControlPolicies: SimulatedLevel[];
  /** The RCPs in force for the resource, one entry per level of its account's path. */
  resourceControlPolicies: SimulatedLevel[];
}

const FULL_ACCESS: IamPolicyDocument = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
};

/**
 * The organisation's part of the decision for a caller whose identity policy allows everything:
 * an explicit deny in an RCP or an SCP denies; otherwise each must allow
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic_policy-eval-denyallow.html).
 */
export async function simulateOrganization(r: SimulatedRequest): Promise<SimulatedOutcome> {
  const response = await runSimulation(
    {
      request: {
        principal: r.principal,
        action: r.action,
        resource: { resource: r.resource, accountId: r.resourceAccount },
        contextVariables: r.context,
      },
      identityPolicies: [{ name: "admin", policy: FULL_ACCESS }],
      serviceControlPolicies: r.serviceControlPolicies,
      resourceControlPolicies: r.resourceControlPolicies,
    },
    {},
  );
  if (response.resultType === "error") throw new Error(JSON.stringify(response.errors));
  const analysis =
    response.resultType === "single" ? response.result.analysis : response.results[0]!.analysis;
  const rcp = analysis.rcpAnalysis?.result ?? "Allowed";
  const scp = analysis.scpAnalysis?.result ?? "Allowed";
  if (rcp === "ExplicitlyDenied" || scp === "ExplicitlyDenied") return "ExplicitlyDenied";
  if (rcp !== "Allowed" || scp !== "Allowed") return "ImplicitlyDenied";
  return "Allowed";
}
