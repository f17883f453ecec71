import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreatePolicyCommand,
  DeleteResourcePolicyCommand,
  DescribeResourcePolicyCommand,
  ListAccountsCommand,
  ListPoliciesForTargetCommand,
  ListTagsForResourceCommand,
  OrganizationsClient,
  PutResourcePolicyCommand,
  UntagResourceCommand,
} from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delegationPolicy } from "../src/cloud/aws/aws-permissions";
import { type AwsConnection, createAwsProvider } from "../src/cloud/aws/aws-provider";
import { sandboxAwsConnection } from "../src/cloud/sandbox-endpoints";
import { refuseManagementAccount } from "../src/modules/deployment/bundle-input";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { runScpScenario } from "./support/scp-scenario";

// A connector whose role lives in a member account that the management account made delegated
// administrator for Organizations through its resource-based delegation policy
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html).

const fast = { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 };

describe("a connector in a delegated administrator account", () => {
  let dataDir: string;
  let cloud: SandboxCloud;
  let management: OrganizationsClient;
  let delegatedAccount: string;
  let connection: AwsConnection;

  const put = (content: unknown) =>
    management.send(new PutResourcePolicyCommand({ Content: JSON.stringify(content) }));
  const checksOf = async (c: AwsConnection) => {
    const provider = createAwsProvider(c);
    try {
      return Object.fromEntries(
        (await provider.verify()).filter((x) => !/trail/i.test(x.name)).map((x) => [x.name, x]),
      );
    } finally {
      provider.close();
    }
  };

  /** The delegated role's own session, to make calls Palisade never makes. */
  async function delegatedClient() {
    const sts = new STSClient({
      endpoint: cloud.aws.endpoint,
      region: cloud.aws.region,
      credentials: { accessKeyId: cloud.aws.accessKeyId, secretAccessKey: cloud.aws.secretAccessKey },
    });
    const out = await sts.send(
      new AssumeRoleCommand({
        RoleArn: cloud.aws.delegatedConnectorRoleArn,
        RoleSessionName: "probe",
        ExternalId: cloud.aws.externalId,
      }),
    );
    sts.destroy();
    const c = out.Credentials!;
    return new OrganizationsClient({
      endpoint: cloud.aws.endpoint,
      region: cloud.aws.region,
      credentials: {
        accessKeyId: c.AccessKeyId!,
        secretAccessKey: c.SecretAccessKey!,
        sessionToken: c.SessionToken!,
      },
    });
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "palisade-delegated-"));
    cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
    management = sandboxOrganizations(cloud);
    delegatedAccount = cloud.aws.delegatedConnectorRoleArn.split(":")[4]!;
    connection = {
      ...sandboxAwsConnection(cloud),
      roleArn: cloud.aws.delegatedConnectorRoleArn,
      retry: fast,
    };
  }, 60_000);

  afterAll(async () => {
    management?.destroy();
    await cloud?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("is told what is missing until the management account delegates every call Palisade makes", async () => {
    expect(delegatedAccount).not.toBe(cloud.aws.managementAccountId);
    // No delegation policy: a member account may not even read the organisation.
    let checks = await checksOf(connection);
    expect(checks["Read the organisation"]?.ok).toBe(false);
    expect(checks["Read the organisation"]?.message).toMatch(/organizations:DescribeOrganization/);

    // Reads delegated, writes not.
    const full = delegationPolicy(delegatedAccount);
    await put({ ...full, Statement: [full.Statement[0]] });
    checks = await checksOf(connection);
    expect(checks["Read the organisation"]?.ok).toBe(true);
    expect(checks["Connector account"]).toMatchObject({ ok: false });
    expect(checks["Connector account"]?.message).toContain(
      `account ${delegatedAccount}, a delegated administrator`,
    );
    expect(checks["Connector account"]?.message).toContain("organizations:CreatePolicy");
    expect(checks["Connector account"]?.message).toContain("organizations:DetachPolicy");
    expect(checks["Connector account"]?.message).not.toContain("organizations:ListRoots");
    const provider = createAwsProvider(connection);
    try {
      const account = (await provider.listHierarchy()).find((e) => e.name === "sandbox-bob")!.externalId;
      await expect(runScpScenario(provider, account, async () => ({}))).rejects.toMatchObject({
        name: "AccessDeniedException",
      });
    } finally {
      provider.close();
    }

    await put(full);
    checks = await checksOf(connection);
    expect(Object.values(checks).filter((c) => !c.ok)).toEqual([]);
    expect(checks["Connector account"]?.message).toMatch(/delegated administrator/);
    const fromManagement = await checksOf({ ...sandboxAwsConnection(cloud), retry: fast });
    expect(fromManagement["Connector account"]?.message).toMatch(/management account/);
  });

  it("deploys, re-packs, updates and removes guardrails from the delegated account", async () => {
    await put(delegationPolicy(delegatedAccount));
    const provider = createAwsProvider(connection);
    try {
      const entries = await provider.listHierarchy();
      const account = entries.find((e) => e.name === "sandbox-bob")!.externalId;
      const ou = entries.find((e) => e.name === "Workloads-Dev")!.externalId;
      const tags = async (id: string) =>
        Object.fromEntries(
          ((await management.send(new ListTagsForResourceCommand({ ResourceId: id }))).Tags ?? []).map(
            (t) => [t.Key, t.Value],
          ),
        );
      for (const target of [account, ou]) {
        const steps = await runScpScenario(provider, target, tags);
        expect(steps.map((s) => Object.keys(s.scps).length)).toEqual([1, 1, 2, 2, 1, 1, 0]);
        expect(steps.every((s) => s.tagged === Object.keys(s.scps).length)).toBe(true);
      }
      // Seen from the management account afterwards: the account keeps only FullAWSAccess.
      const attached = await management.send(
        new ListPoliciesForTargetCommand({ TargetId: account, Filter: "SERVICE_CONTROL_POLICY" }),
      );
      expect(attached.Policies?.map((p) => p.Name)).toEqual(["FullAWSAccess"]);
    } finally {
      provider.close();
    }
  });

  it("may make exactly the delegated calls; the rest are refused as AWS refuses them", async () => {
    await put(delegationPolicy(delegatedAccount));
    const client = await delegatedClient();
    try {
      const denied = async (send: () => Promise<unknown>) =>
        send().then(
          () => "allowed",
          (e: { name: string }) => e.name,
        );
      expect((await client.send(new DescribeResourcePolicyCommand({}))).ResourcePolicy?.Content).toBeTruthy();
      // Only the management account changes the delegation policy.
      expect(await denied(() => client.send(new PutResourcePolicyCommand({ Content: "{}" })))).toBe(
        "AccessDeniedException",
      );
      expect(await denied(() => client.send(new DeleteResourcePolicyCommand({})))).toBe(
        "AccessDeniedException",
      );
      // Not in the delegation policy.
      expect(await denied(() => client.send(new ListAccountsCommand({})))).toBe("AccessDeniedException");
      // Delegated for SCPs only: another policy type is refused by the policy's condition.
      expect(
        await denied(() =>
          client.send(
            new CreatePolicyCommand({ Name: "tags", Description: "x", Type: "TAG_POLICY", Content: "{}" }),
          ),
        ),
      ).toBe("AccessDeniedException");
      const created = await client.send(
        new CreatePolicyCommand({
          Name: "delegated-scp",
          Description: "x",
          Type: "SERVICE_CONTROL_POLICY",
          Content: JSON.stringify({
            Version: "2012-10-17",
            Statement: [{ Effect: "Deny", Action: "s3:*", Resource: "*" }],
          }),
          Tags: [{ Key: "palisade:managed", Value: "true" }],
        }),
      );
      const id = created.Policy?.PolicySummary?.Id ?? "";
      expect(
        await denied(() =>
          client.send(new UntagResourceCommand({ ResourceId: id, TagKeys: ["palisade:managed"] })),
        ),
      ).toBe("AccessDeniedException");

      // Withdrawn, the delegation ends at once.
      await management.send(new DeleteResourcePolicyCommand({}));
      expect(await denied(() => client.send(new DescribeResourcePolicyCommand({})))).toBe(
        "AccessDeniedException",
      );
      const checks = await checksOf(connection);
      expect(checks["Read the organisation"]?.ok).toBe(false);
    } finally {
      client.destroy();
    }
  });

  it("still finds the management account, and refuses guardrails that target it", async () => {
    await put(delegationPolicy(delegatedAccount));
    // The connector names the delegated account as the management account: the test says which it is.
    const wrong = await checksOf({ ...connection, managementAccountId: delegatedAccount });
    expect(wrong["Read the organisation"]).toMatchObject({ ok: false });
    expect(wrong["Read the organisation"]?.message).toContain(
      `management account is ${cloud.aws.managementAccountId}, not ${delegatedAccount}`,
    );
    const checks = await checksOf(connection);
    expect(checks["Read the organisation"]?.ok).toBe(true);
    expect(() =>
      refuseManagementAccount(
        [
          {
            provider: "aws",
            externalId: cloud.aws.managementAccountId,
            name: "management",
            type: "AWS_ACCOUNT",
            connectorId: "c",
          },
        ],
        connection.managementAccountId,
      ),
    ).toThrow(/management account, which service control policies never restrict/);
  });
});
