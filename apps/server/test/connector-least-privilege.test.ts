import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreatePolicyCommand, type OrganizationsClient } from "@aws-sdk/client-organizations";
import { runSimulation } from "@cloud-copilot/iam-simulate";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import { sandboxAwsConnection } from "../src/cloud/sandbox-endpoints";
import { awsSetup } from "../src/modules/connector/setup-instructions";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { type RecordedCall, recordingProxy, runScpScenario } from "./support/scp-scenario";

// The connector role's permissions policy, as the setup instructions print it, decided by
// @cloud-copilot/iam-simulate (an IAM simulator written by others; test-only) for every
// Organizations call Palisade's adapter made in a test connection, a sync and a deploy, re-pack,
// update and remove against the sandbox, with the tags the sandbox held at each call. Resources
// and condition keys per action as the service authorization reference lists them
// (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html):
// AttachPolicy and DetachPolicy are authorised on the policy and on the target alike.

const TAG_KEY = "palisade:managed";
const permissions = JSON.parse(
  awsSetup({ principalArn: undefined, externalId: undefined }).permissionsPolicyJson,
);

interface IamRequest {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

async function decide(request: IamRequest, account: string): Promise<string> {
  const response = await runSimulation(
    {
      identityPolicies: [{ name: "palisade-connector", policy: permissions }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: request.action,
        principal: `arn:aws:sts::${account}:assumed-role/PalisadeConnector/palisade`,
        resource: { accountId: account, resource: request.resource },
        contextVariables: request.context,
      },
    } as Parameters<typeof runSimulation>[0],
    {},
  );
  if (response.resultType === "error") return `error: ${JSON.stringify(response.errors).slice(0, 400)}`;
  return response.overallResult;
}

/** The organisation's ARNs, as Organizations names its resources. */
function arns(management: string, organization: string) {
  return {
    policy: (id: string) =>
      `arn:aws:organizations::${management}:policy/${organization}/service_control_policy/${id}`,
    target: (id: string) =>
      id.startsWith("r-")
        ? `arn:aws:organizations::${management}:root/${organization}/${id}`
        : id.startsWith("ou-")
          ? `arn:aws:organizations::${management}:ou/${organization}/${id}`
          : `arn:aws:organizations::${management}:account/${organization}/${id}`,
  };
}

type Tags = Map<string, Record<string, string>>;

/** The IAM requests one Organizations call makes, with the resource tags held when it was made. */
function iamRequests(call: RecordedCall, tags: Tags, arn: ReturnType<typeof arns>): IamRequest[] {
  const action = `organizations:${call.operation}`;
  const input = call.input as Record<string, string>;
  const policyContext = (id: string) => ({
    "organizations:PolicyType": "SERVICE_CONTROL_POLICY",
    ...Object.fromEntries(Object.entries(tags.get(id) ?? {}).map(([k, v]) => [`aws:ResourceTag/${k}`, v])),
  });
  const requestTags = (list: unknown) =>
    Object.fromEntries(((list as { Key: string; Value: string }[]) ?? []).map((t) => [t.Key, t.Value]));
  switch (call.operation) {
    case "CreatePolicy": {
      const created = (call.output.Policy as { PolicySummary?: { Id?: string } } | undefined)?.PolicySummary
        ?.Id;
      const asked = requestTags(call.input.Tags);
      return [
        {
          action,
          resource: created ? arn.policy(created) : arn.policy("p-new"),
          context: {
            "organizations:PolicyType": input.Type ?? "",
            "aws:TagKeys": Object.keys(asked),
            ...Object.fromEntries(Object.entries(asked).map(([k, v]) => [`aws:RequestTag/${k}`, v])),
          },
        },
      ];
    }
    case "UpdatePolicy":
    case "DeletePolicy":
    case "DescribePolicy":
    case "ListTargetsForPolicy":
      return [{ action, resource: arn.policy(input.PolicyId!), context: policyContext(input.PolicyId!) }];
    case "AttachPolicy":
    case "DetachPolicy":
      return [
        { action, resource: arn.policy(input.PolicyId!), context: policyContext(input.PolicyId!) },
        { action, resource: arn.target(input.TargetId!), context: {} },
      ];
    case "ListPoliciesForTarget":
      return [
        {
          action,
          resource: arn.target(input.TargetId!),
          context: { "organizations:PolicyType": input.Filter! },
        },
      ];
    case "ListTagsForResource":
      return [{ action, resource: arn.policy(input.ResourceId!), context: policyContext(input.ResourceId!) }];
    case "TagResource": {
      const asked = requestTags(call.input.Tags);
      return [
        {
          action,
          resource: arn.policy(input.ResourceId!),
          context: {
            ...policyContext(input.ResourceId!),
            "aws:TagKeys": Object.keys(asked),
            ...Object.fromEntries(Object.entries(asked).map(([k, v]) => [`aws:RequestTag/${k}`, v])),
          },
        },
      ];
    }
    case "ListPolicies":
      return [{ action, resource: "*", context: { "organizations:PolicyType": input.Filter! } }];
    default:
      // DescribeOrganization, ListRoots and the hierarchy's lists.
      return [{ action, resource: "*", context: {} }];
  }
}

/** The tags each call leaves: CreatePolicy's Tags on the new policy, TagResource's on its resource. */
function applyTags(call: RecordedCall, tags: Tags) {
  const list = (call.input.Tags as { Key: string; Value: string }[] | undefined) ?? [];
  const asked = Object.fromEntries(list.map((t) => [t.Key, t.Value]));
  if (call.status !== 200) return;
  if (call.operation === "CreatePolicy") {
    const id = (call.output.Policy as { PolicySummary?: { Id?: string } }).PolicySummary?.Id ?? "";
    tags.set(id, asked);
  }
  if (call.operation === "TagResource") {
    const id = call.input.ResourceId as string;
    tags.set(id, { ...(tags.get(id) ?? {}), ...asked });
  }
}

describe("the connector's permissions policy, decided by an IAM simulator", () => {
  let dataDir: string;
  let cloud: SandboxCloud;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let raw: OrganizationsClient;
  let legacyId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "palisade-least-privilege-"));
    cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
    proxy = await recordingProxy(cloud.aws.endpoint);
    raw = sandboxOrganizations(cloud);
    // An SCP Palisade wrote before it tagged its own: the next sync tags it.
    const legacy = await raw.send(
      new CreatePolicyCommand({
        Name: "palisade-AAAAAA9-deny-leave-organization",
        Description: "written before Palisade tagged its SCPs",
        Type: "SERVICE_CONTROL_POLICY",
        Content: JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            {
              Sid: "PalisadeAAAAAA90",
              Effect: "Deny",
              Action: "organizations:LeaveOrganization",
              Resource: "*",
            },
          ],
        }),
      }),
    );
    legacyId = legacy.Policy?.PolicySummary?.Id ?? "";
  }, 60_000);

  afterAll(async () => {
    raw?.destroy();
    await proxy?.close();
    await cloud?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("allows every Organizations call of a test connection, a sync, and a deploy, re-pack, update and remove", async () => {
    const provider = createAwsProvider({ ...sandboxAwsConnection(cloud), endpoint: proxy.url });
    try {
      // The trail's checks read S3, not Organizations (nothing has been delivered yet).
      const checks = (await provider.verify()).filter((c) => !/trail/i.test(c.name));
      expect(checks.filter((c) => !c.ok)).toEqual([]);
      const entries = await provider.listHierarchy();
      expect(await provider.tagManagedScps()).toBe(1);
      const target = entries.find((e) => e.name === "sandbox-alice")!.externalId;
      const ou = entries.find((e) => e.name === "Sandbox")!.externalId;
      await runScpScenario(provider, target, async () => ({}));
      await runScpScenario(provider, ou, async () => ({}));
      await provider.removeScp(legacyId);
    } finally {
      provider.close();
    }
    const calls = proxy.calls;
    const org = calls.find((c) => c.operation === "DescribeOrganization")!.output.Organization as {
      Id: string;
      MasterAccountId: string;
    };
    const arn = arns(org.MasterAccountId, org.Id);
    // The sandbox's tags before the run: only the legacy SCP, untagged.
    const tags: Tags = new Map([[legacyId, {}]]);
    const decided: string[] = [];
    for (const call of calls) {
      for (const request of iamRequests(call, tags, arn)) {
        decided.push(
          `${request.action} ${request.resource} -> ${await decide(request, org.MasterAccountId)}`,
        );
      }
      applyTags(call, tags);
    }
    const operations = new Set(calls.map((c) => c.operation));
    for (const op of [
      "CreatePolicy",
      "UpdatePolicy",
      "DeletePolicy",
      "AttachPolicy",
      "DetachPolicy",
      "TagResource",
      "ListTagsForResource",
      "ListPoliciesForTarget",
      "DescribePolicy",
      "ListTargetsForPolicy",
      "DescribeOrganization",
      "ListRoots",
    ])
      expect(operations).toContain(op);
    expect(decided.filter((d) => !d.endsWith("-> Allowed"))).toEqual([]);
  });

  it("denies changing, deleting, attaching or detaching an SCP without Palisade's tag, and creating one without it", async () => {
    const arn = arns("111111111111", "o-exampleorg1");
    const foreign = arn.policy("p-security1");
    const account = "111111111111";
    const withTag = (value: string) => ({
      "organizations:PolicyType": "SERVICE_CONTROL_POLICY",
      [`aws:ResourceTag/${TAG_KEY}`]: value,
    });
    const untagged = { "organizations:PolicyType": "SERVICE_CONTROL_POLICY" };
    for (const action of ["UpdatePolicy", "DeletePolicy", "DetachPolicy", "AttachPolicy"]) {
      expect(
        await decide({ action: `organizations:${action}`, resource: foreign, context: untagged }, account),
      ).toBe("ImplicitlyDenied");
      expect(
        await decide(
          { action: `organizations:${action}`, resource: foreign, context: withTag("false") },
          account,
        ),
      ).toBe("ImplicitlyDenied");
      expect(
        await decide(
          { action: `organizations:${action}`, resource: foreign, context: withTag("true") },
          account,
        ),
      ).toBe("Allowed");
    }
    const create = (context: Record<string, string | string[]>) =>
      decide({ action: "organizations:CreatePolicy", resource: arn.policy("p-new12345"), context }, account);
    expect(await create({ "organizations:PolicyType": "SERVICE_CONTROL_POLICY", "aws:TagKeys": [] })).toBe(
      "ImplicitlyDenied",
    );
    expect(
      await create({
        "organizations:PolicyType": "SERVICE_CONTROL_POLICY",
        "aws:TagKeys": [TAG_KEY, "team"],
        [`aws:RequestTag/${TAG_KEY}`]: "true",
        "aws:RequestTag/team": "x",
      }),
    ).toBe("ImplicitlyDenied");
    // Tagging adds Palisade's tag and nothing else.
    expect(
      await decide(
        {
          action: "organizations:TagResource",
          resource: foreign,
          context: { ...untagged, "aws:TagKeys": ["owner"], "aws:RequestTag/owner": "me" },
        },
        account,
      ),
    ).toBe("ImplicitlyDenied");
    // The organisation's other writes are not the connector's.
    for (const action of ["UntagResource", "PutResourcePolicy", "DisablePolicyType", "LeaveOrganization"])
      expect(
        await decide({ action: `organizations:${action}`, resource: "*", context: {} }, account),
      ).not.toBe("Allowed");
  });

  // Policy ARNs per type: arn:aws:organizations::<account>:policy/o-<org>/<policy type>/p-<id>
  // (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsorganizations.html).
  it.each([
    ["SERVICE_CONTROL_POLICY", "Allowed"],
    ["RESOURCE_CONTROL_POLICY", "Allowed"],
    ["DECLARATIVE_POLICY_EC2", "Allowed"],
    ["TAG_POLICY", "ImplicitlyDenied"],
    ["BACKUP_POLICY", "ImplicitlyDenied"],
  ])(
    "%s: create, update, attach, detach and delete of Palisade's own policies are %s, others' refused",
    async (type, expected) => {
      const account = "111111111111";
      const policy = `arn:aws:organizations::${account}:policy/o-exampleorg1/${type.toLowerCase()}/p-abcdefgh`;
      const tagged = { "organizations:PolicyType": type, [`aws:ResourceTag/${TAG_KEY}`]: "true" };
      const untagged = { "organizations:PolicyType": type };
      const create = (tags: string[]) =>
        decide(
          {
            action: "organizations:CreatePolicy",
            resource: policy,
            context: {
              "organizations:PolicyType": type,
              "aws:TagKeys": tags,
              ...Object.fromEntries(tags.map((t) => [`aws:RequestTag/${t}`, "true"])),
            },
          },
          account,
        );
      expect(await create([TAG_KEY])).toBe(expected);
      expect(await create([])).toBe("ImplicitlyDenied");
      for (const action of ["UpdatePolicy", "AttachPolicy", "DetachPolicy", "DeletePolicy"]) {
        const decided = (context: Record<string, string>) =>
          decide({ action: `organizations:${action}`, resource: policy, context }, account);
        expect(`${action} ${await decided(tagged)}`).toBe(`${action} ${expected}`);
        expect(`${action} ${await decided(untagged)}`).toBe(`${action} ImplicitlyDenied`);
      }
      // Enabling a policy type is the organisation's decision, never the connector's.
      expect(
        await decide({ action: "organizations:EnablePolicyType", resource: "*", context: untagged }, account),
      ).toBe("ImplicitlyDenied");
    },
  );

  it("is the policy docs/connectors.md shows", () => {
    const docs = readFileSync(join(__dirname, "../../../docs/connectors.md"), "utf8");
    const block = /<!-- permissions-policy -->\n```json\n([\s\S]*?)\n```/.exec(docs)?.[1];
    expect(block && JSON.parse(block)).toEqual(permissions);
  });
});
