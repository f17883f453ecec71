import { runSimulation } from "@cloud-copilot/iam-simulate";
import {
  createRecordedEvaluator,
  evaluateRecordedRequest,
} from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import {
  type CloudTrailRecord,
  requestFromCloudTrail,
} from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import { describe, expect, it } from "vitest";
import {
  CLOUDTRAIL_FIXTURES,
  catalogueDefinitions,
  catalogueScp,
  type FixtureName,
  fixtureRecord,
} from "../../../test/support/cloudtrail-fixtures";

// The replay's requests, built from CloudTrail records written from AWS's documentation, decided
// by Palisade's evaluator and by @cloud-copilot/iam-simulate (an IAM simulator written by others;
// test-only) under every AWS guardrail of the catalogue with its default parameters.

const ALLOW_ALL = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }] };

/** The fixtures, and variants of their parameters that flip the guardrails' conditions. */
function records(): [string, CloudTrailRecord][] {
  const out: [string, CloudTrailRecord][] = Object.keys(CLOUDTRAIL_FIXTURES).map((name) => [
    name,
    fixtureRecord(name as FixtureName),
  ]);
  const launch = fixtureRecord("ec2RunInstancesAllowed");
  const params = launch.requestParameters ?? {};
  const variant = (name: string, change: Partial<CloudTrailRecord>) =>
    out.push([name, { ...launch, ...change }]);
  variant("launch in a region outside the allow-list", { awsRegion: "ap-southeast-2" });
  variant("launch of an allowed type", { requestParameters: { ...params, instanceType: "t3.small" } });
  variant("launch with IMDSv1", {
    requestParameters: { ...params, metadataOptions: { httpTokens: "optional", httpPutResponseHopLimit: 1 } },
  });
  variant("launch with a high hop limit", {
    requestParameters: { ...params, metadataOptions: { httpTokens: "required", httpPutResponseHopLimit: 5 } },
  });
  variant("launch without the owner tag", {
    requestParameters: { ...params, tagSpecificationSet: { items: [] } },
  });
  variant("launch with an unencrypted volume", {
    requestParameters: {
      ...params,
      blockDeviceMapping: { items: [{ deviceName: "/dev/xvda", ebs: { volumeSize: 8, encrypted: false } }] },
    },
  });
  const pab = fixtureRecord("s3PabWaived");
  out.push([
    "the security administrator's call",
    {
      ...pab,
      userIdentity: {
        ...pab.userIdentity,
        sessionContext: {
          ...pab.userIdentity?.sessionContext,
          sessionIssuer: { type: "Role", arn: "arn:aws:iam::111122223333:role/SecurityAdmin" },
        },
      },
    },
  ]);
  return out;
}

function guardrails(): [string, ScpPolicy][] {
  const out: [string, ScpPolicy][] = [];
  for (const definition of catalogueDefinitions().values()) {
    if (definition.enforcer !== "aws_scp") continue;
    try {
      out.push([definition.slug, catalogueScp(definition.slug)]);
    } catch {
      // A guardrail whose parameters have no defaults (the protected ARNs) needs values to deploy.
    }
  }
  return out;
}

async function simulatedDeny(
  scp: ScpPolicy,
  action: string,
  principal: string,
  account: string,
  resource: string | undefined,
  context: Record<string, unknown>,
): Promise<boolean | string> {
  const document = typeof scp.document === "string" ? JSON.parse(scp.document) : scp.document;
  const response = await runSimulation(
    {
      identityPolicies: [{ name: "allow-all", policy: ALLOW_ALL }],
      serviceControlPolicies: [
        {
          orgIdentifier: "r-root",
          policies: [
            { name: "FullAWSAccess", policy: ALLOW_ALL },
            { name: scp.name, policy: document },
          ],
        },
      ],
      resourceControlPolicies: [],
      request: {
        action,
        principal,
        resource: { accountId: account, resource: resource ?? "*" },
        contextVariables: Object.fromEntries(
          Object.entries(context).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
        ),
      },
    } as Parameters<typeof runSimulation>[0],
    {},
  );
  if (response.resultType === "error") return JSON.stringify(response.errors).slice(0, 300);
  return response.overallResult === "ExplicitlyDenied";
}

describe("the replay's requests decided alongside an IAM simulator", () => {
  it("agrees on every request it evaluates under every catalogue guardrail", async () => {
    const scps = guardrails();
    // The preview's evaluator shares decisions between requests that agree on what a policy reads.
    const shared = new Map(scps.map(([slug, scp]) => [slug, createRecordedEvaluator([scp])]));
    expect(scps.length).toBeGreaterThanOrEqual(40);
    const disagreements: string[] = [];
    let compared = 0;
    let denied = 0;
    let notEvaluable = 0;
    for (const [name, record] of records()) {
      const request = requestFromCloudTrail(record);
      for (const [slug, scp] of scps) {
        const ours = evaluateRecordedRequest(request, [scp]);
        if (shared.get(slug)?.(request).decision !== ours.decision)
          disagreements.push(`${name} / ${slug}: the shared evaluator decides otherwise`);
        if (ours.decision === "not_evaluable") {
          notEvaluable += 1;
          continue;
        }
        let theirs = false;
        for (const check of request.checks) {
          const decision = await simulatedDeny(
            scp,
            request.action,
            request.principalArn,
            request.account,
            check.resource,
            check.context,
          );
          if (typeof decision === "string")
            disagreements.push(`${name} / ${slug}: simulator error ${decision}`);
          else theirs ||= decision;
        }
        compared += 1;
        if (theirs) denied += 1;
        if (theirs !== (ours.decision === "explicit_deny"))
          disagreements.push(
            `${name} / ${slug}: Palisade ${ours.decision}, simulator ${theirs ? "deny" : "not deny"}`,
          );
      }
    }
    expect(disagreements).toEqual([]);
    // The comparison is not vacuous: the records meet the guardrails they are about.
    expect(denied).toBeGreaterThanOrEqual(10);
    expect(compared).toBeGreaterThan(500);
    expect(notEvaluable).toBeGreaterThan(0);
  }, 120_000);
});
