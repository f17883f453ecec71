import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AttachPolicyCommand,
  CreateAccountCommand,
  CreateOrganizationalUnitCommand,
  CreateOrganizationCommand,
  CreatePolicyCommand,
  DescribePolicyCommand,
  DescribeResourcePolicyCommand,
  DetachPolicyCommand,
  EnablePolicyTypeCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  ListTagsForResourceCommand,
  MoveAccountCommand,
  OrganizationsClient,
  TagResourceCommand,
  UpdatePolicyCommand,
} from "@aws-sdk/client-organizations";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { sandboxAwsConnection } from "../src/cloud/sandbox-endpoints";
import { startDroppingRelay } from "./support/dropping-relay";
import { type MotoServer, motoAvailable, startMotoServer } from "./support/moto-server";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";
import { runScpScenario, type TargetSnapshot } from "./support/scp-scenario";

// moto (https://docs.getmoto.org/en/latest/docs/services/organizations.html), written by people
// outside Palisade, as a second Organizations: Palisade's AWS adapter deploys, re-packs, updates
// and removes guardrails on a member account of each, and both must end in the same state. The
// ways moto and the sandbox differ, and how each is settled, are listed at the end of this file.

const fast = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 };
const MOTO_ACCOUNT = "123456789012";
const MOTO_KEYS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "moto-secret" };

interface Backend {
  provider: AwsCloudProvider;
  raw: OrganizationsClient;
  target: string;
}

const tagsOf = (raw: OrganizationsClient) => async (policyId: string) => {
  const out = await raw.send(new ListTagsForResourceCommand({ ResourceId: policyId }));
  return Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
};

/** The target's id is part of a pack's name; the two organisations have different ids. */
const normalised = (snapshots: TargetSnapshot[], target: string) =>
  JSON.parse(JSON.stringify(snapshots).replaceAll(target, "<target>")) as TargetSnapshot[];

const legacyScp = {
  Name: "palisade-AAAAAA9-deny-leave-organization",
  Description: "written before Palisade tagged its SCPs",
  Type: "SERVICE_CONTROL_POLICY" as const,
  Content: JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      { Sid: "PalisadeAAAAAA90", Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" },
    ],
  }),
};

describe.skipIf(!motoAvailable())("Palisade's AWS adapter on moto's Organizations and on the sandbox", () => {
  let moto: MotoServer;
  let dataDir: string;
  let cloud: SandboxCloud;
  const backends: Record<"moto" | "sandbox", Backend> = {} as never;

  beforeAll(async () => {
    moto = await startMotoServer();
    const raw = new OrganizationsClient({
      endpoint: moto.url,
      region: "us-east-1",
      credentials: MOTO_KEYS,
    });
    // A new organisation with all features; SCPs are a policy type the management account
    // enables on the root (https://docs.aws.amazon.com/organizations/latest/userguide/enable-policy-type.html).
    await raw.send(new CreateOrganizationCommand({ FeatureSet: "ALL" }));
    const rootId = (await raw.send(new ListRootsCommand({}))).Roots?.[0]?.Id ?? "";
    await raw.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "SERVICE_CONTROL_POLICY" }));
    const ou = await raw.send(new CreateOrganizationalUnitCommand({ ParentId: rootId, Name: "Sandbox" }));
    const created = await raw.send(
      new CreateAccountCommand({ AccountName: "sandbox-alice", Email: "alice@example.com" }),
    );
    const account = created.CreateAccountStatus?.AccountId ?? "";
    await raw.send(
      new MoveAccountCommand({
        AccountId: account,
        SourceParentId: rootId,
        DestinationParentId: ou.OrganizationalUnit?.Id ?? "",
      }),
    );
    backends.moto = {
      raw,
      target: account,
      provider: createAwsProvider({
        endpoint: moto.url,
        region: "us-east-1",
        managementAccountId: MOTO_ACCOUNT,
        roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/PalisadeConnector`,
        externalId: "palisade-moto",
        baseCredentials: MOTO_KEYS,
        consoleLinks: false,
        retry: fast,
      }),
    };

    dataDir = mkdtempSync(join(tmpdir(), "palisade-moto-orgs-"));
    cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
    const provider = createAwsProvider({ ...sandboxAwsConnection(cloud), retry: fast });
    const entries = await provider.listHierarchy();
    backends.sandbox = {
      provider,
      target: entries.find((e) => e.name === "sandbox-alice")?.externalId ?? "",
      raw: sandboxOrganizations(cloud),
    };
  }, 60_000);

  afterAll(async () => {
    for (const b of Object.values(backends)) {
      b.provider.close();
      b.raw.destroy();
    }
    await cloud?.close();
    await moto?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the same shape of organisation from both: root, OU, the member account under it", async () => {
    for (const { provider, target } of Object.values(backends)) {
      const entries = await provider.listHierarchy();
      const account = entries.find((e) => e.externalId === target);
      const ou = entries.find((e) => e.externalId === account?.parentExternalId);
      expect(account?.type).toBe("AWS_ACCOUNT");
      expect(ou).toMatchObject({ type: "AWS_OU", name: "Sandbox" });
      expect(entries.find((e) => e.externalId === ou?.parentExternalId)?.type).toBe("AWS_ORGANIZATION_ROOT");
    }
  });

  it("deploys, re-packs, updates and removes guardrails with the same result on both", async () => {
    const results: Record<string, TargetSnapshot[]> = {};
    for (const [name, b] of Object.entries(backends)) {
      results[name] = normalised(await runScpScenario(b.provider, b.target, tagsOf(b.raw)), b.target);
    }
    expect(results.moto).toEqual(results.sandbox);
    // What a user would check on the account: two guardrails share the first SCP, the third
    // spills into a second; the waiver makes the first guardrail too large to stay beside the
    // second, so it moves in with the third; every Palisade SCP carries the tag; an emptied SCP
    // is deleted, and the account keeps FullAWSAccess.
    const pack = (slot: number) => `palisade-<target>-${slot}`;
    const { publicAccess, imdsV1, leaveOrg } = {
      publicAccess: "PAAAAAA10",
      imdsV1: "PAAAAAA20",
      leaveOrg: "PAAAAAA30",
    };
    expect(
      results.sandbox!.map(({ step, scps, tagged, others }) => ({ step, scps, tagged, others })),
    ).toEqual(
      [
        ["deploy publicAccess", { [pack(0)]: [publicAccess] }],
        ["deploy imdsV1 (re-pack)", { [pack(0)]: [publicAccess, imdsV1] }],
        ["deploy leaveOrg (second SCP)", { [pack(0)]: [publicAccess, imdsV1], [pack(1)]: [leaveOrg] }],
        ["update publicAccess with a waiver", { [pack(0)]: [imdsV1], [pack(1)]: [publicAccess, leaveOrg] }],
        ["remove imdsV1", { [pack(1)]: [publicAccess, leaveOrg] }],
        ["remove publicAccess", { [pack(1)]: [leaveOrg] }],
        ["remove leaveOrg", {}],
      ].map(([step, scps]) => ({
        step,
        scps,
        tagged: Object.keys(scps as object).length,
        others: ["FullAWSAccess"],
      })),
    );
  });

  it("tags the Palisade SCPs it finds without the tag, once, and leaves other SCPs alone", async () => {
    for (const { provider, raw } of Object.values(backends)) {
      const legacy = await raw.send(new CreatePolicyCommand(legacyScp));
      const foreign = await raw.send(
        new CreatePolicyCommand({
          ...legacyScp,
          Name: "security-team-baseline",
          Description: "not Palisade's",
        }),
      );
      const legacyId = legacy.Policy?.PolicySummary?.Id ?? "";
      const foreignId = foreign.Policy?.PolicySummary?.Id ?? "";
      expect(await tagsOf(raw)(legacyId)).toEqual({});
      expect(await provider.tagManagedScps()).toBe(1);
      expect(await tagsOf(raw)(legacyId)).toEqual({ "palisade:managed": "true" });
      expect(await tagsOf(raw)(foreignId)).toEqual({});
      expect(await provider.tagManagedScps()).toBe(0);
      // Removed as Palisade removes a per-bundle SCP; the foreign one stays.
      await provider.removeScp(legacyId);
      await expect(raw.send(new DescribePolicyCommand({ PolicyId: legacyId }))).rejects.toMatchObject({
        name: "PolicyNotFoundException",
      });
      expect(
        (await raw.send(new DescribePolicyCommand({ PolicyId: foreignId }))).Policy?.Content,
      ).toBeTruthy();
    }
  });

  // Where the two answer differently. Each row: the call, what the sandbox answers as AWS
  // documents it, and what moto answers; Palisade's adapter works with either (the scenario
  // above passes on both), because it tolerates the documented error or never makes the call.
  it("differs from moto only where moto is kinder than AWS documents", async () => {
    const outcome = async (send: () => Promise<unknown>) => {
      try {
        await send();
        return "ok";
      } catch (error) {
        return (error as { name: string }).name;
      }
    };
    const scp = (name: string, content?: string) => ({
      Name: name,
      Description: name,
      Type: "SERVICE_CONTROL_POLICY" as const,
      Content:
        content ??
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Deny", Action: "s3:*", Resource: "*" }],
        }),
    });
    const rows: Record<string, Record<string, string>> = {};
    for (const [name, b] of Object.entries(backends)) {
      const { raw, target } = b;
      const create = async (n: string) =>
        (await raw.send(new CreatePolicyCommand(scp(`${n}-${name}`)))).Policy?.PolicySummary?.Id ?? "";
      const first = await create("diff-first");
      const second = await create("diff-second");
      const attach = (id: string) => raw.send(new AttachPolicyCommand({ PolicyId: id, TargetId: target }));
      const detach = (id: string) => raw.send(new DetachPolicyCommand({ PolicyId: id, TargetId: target }));
      const row: Record<string, string> = {};
      await attach(first);
      row.attachTwice = await outcome(() => attach(first));
      row.detachUnattached = await outcome(() => detach(second));
      await detach(first);
      row.detachLastScp = await outcome(() => detach("p-FullAWSAccess"));
      const extra: string[] = [];
      for (let i = 0; i < 10; i++) extra.push(await create(`diff-extra-${i}`));
      for (const id of extra.slice(0, 9)) await attach(id);
      row.attachEleventh = await outcome(() => attach(extra[9]!));
      for (const id of extra.slice(0, 9)) await detach(id);
      const big = JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Deny", Action: "s3:*", Resource: `arn:aws:s3:::${"b".repeat(10_300)}` }],
      });
      row.contentOverQuota = await outcome(() =>
        raw.send(new CreatePolicyCommand(scp(`diff-big-${name}`, big))),
      );
      row.contentNotJson = await outcome(() =>
        raw.send(new CreatePolicyCommand(scp(`diff-bad-${name}`, "{not json"))),
      );
      row.renameToTakenName = await outcome(() =>
        raw.send(new UpdatePolicyCommand({ PolicyId: second, Name: `diff-first-${name}` })),
      );
      row.tagKeyAwsPrefix = await outcome(() =>
        raw.send(new TagResourceCommand({ ResourceId: second, Tags: [{ Key: "aws:owner", Value: "x" }] })),
      );
      row.attachToUnknownAccount = await outcome(() =>
        raw.send(new AttachPolicyCommand({ PolicyId: first, TargetId: "999999999999" })),
      );
      row.describeResourcePolicy = await outcome(() => raw.send(new DescribeResourcePolicyCommand({})));
      rows[name] = row;
    }
    expect(rows.sandbox).toEqual({
      // https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html#API_AttachPolicy_Errors
      attachTwice: "DuplicatePolicyAttachmentException",
      // https://docs.aws.amazon.com/organizations/latest/APIReference/API_DetachPolicy.html#API_DetachPolicy_Errors
      detachUnattached: "PolicyNotAttachedException",
      // ConstraintViolationException, MIN_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED (same page): a target keeps one SCP.
      detachLastScp: "ConstraintViolationException",
      // 10 SCPs per target (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html).
      attachEleventh: "ConstraintViolationException",
      // 10,240 characters per SCP (same page).
      contentOverQuota: "ConstraintViolationException",
      // https://docs.aws.amazon.com/organizations/latest/APIReference/API_CreatePolicy.html#API_CreatePolicy_Errors
      contentNotJson: "MalformedPolicyDocumentException",
      // https://docs.aws.amazon.com/organizations/latest/APIReference/API_UpdatePolicy.html#API_UpdatePolicy_Errors
      renameToTakenName: "DuplicatePolicyException",
      // The aws: prefix is reserved for AWS (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_tagging.html).
      tagKeyAwsPrefix: "InvalidInputException",
      // TargetNotFoundException is AttachPolicy's error for an unknown target (its Errors section).
      attachToUnknownAccount: "TargetNotFoundException",
      // No delegation policy yet (https://docs.aws.amazon.com/organizations/latest/APIReference/API_DescribeResourcePolicy.html#API_DescribeResourcePolicy_Errors).
      describeResourcePolicy: "ResourcePolicyNotFoundException",
    });
    expect(rows.moto).toEqual({
      attachTwice: "ok",
      detachUnattached: "ok",
      detachLastScp: "ok",
      attachEleventh: "ok",
      contentOverQuota: "ok",
      contentNotJson: "ok",
      renameToTakenName: "ok",
      tagKeyAwsPrefix: "ok",
      attachToUnknownAccount: "AccountNotFoundException",
      // moto serves no resource policy: the delegated administrator is tested against the sandbox.
      describeResourcePolicy: expect.any(String),
    });
  });

  // A reset connection is retried, as AWS's SDKs retry one
  // (https://docs.aws.amazon.com/sdk-for-python/v1/guide/config-retries.html, "Retryable errors":
  // "server-closed connections"). When the creation was done and only its answer lost, the retry
  // meets moto's DuplicatePolicyException, the error AWS documents for a taken name
  // (https://docs.aws.amazon.com/organizations/latest/APIReference/API_CreatePolicy.html#API_CreatePolicy_Errors).
  it("writes a policy once on moto when the answer to its creation is lost", async () => {
    const { raw, target } = backends.moto;
    const relay = await startDroppingRelay(Number(new URL(moto.url).port));
    const viaRelay = createAwsProvider({
      endpoint: relay.endpoint,
      region: "us-east-1",
      managementAccountId: MOTO_ACCOUNT,
      roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/PalisadeConnector`,
      externalId: "palisade-moto",
      baseCredentials: MOTO_KEYS,
      consoleLinks: false,
      retry: fast,
    });
    try {
      relay.dropNext("CreatePolicy", "after");
      const content = JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" }],
      });
      const name = "palisade-dropped-answer";
      const ref = await viaRelay.applyScp({
        name,
        description: name,
        content,
        targets: [target],
        attach: true,
      });
      expect(relay.seen.filter((operation) => operation === "CreatePolicy")).toHaveLength(2);
      const listed = await raw.send(new ListPoliciesCommand({ Filter: "SERVICE_CONTROL_POLICY" }));
      expect((listed.Policies ?? []).filter((policy) => policy.Name === name).map((p) => p.Id)).toEqual([
        ref.id,
      ]);
      expect(await viaRelay.listScpTargets(ref.id)).toEqual([target]);
    } finally {
      viaRelay.close();
      await relay.close();
    }
  });
});

// Further differences, outside the calls above:
// - A new moto organisation has no policy type enabled on its root until EnablePolicyType, as AWS
//   documents (https://docs.aws.amazon.com/organizations/latest/userguide/enable-policy-type.html);
//   the sandbox's organisation is seeded with SCPs enabled. Not a difference in behaviour: the
//   test enables them on moto, and TestConnector reads ListRoots' PolicyTypes on both.
// - moto serves no PutResourcePolicy/DescribeResourcePolicy (an HTML 404), so the delegated
//   administrator is tested against the sandbox alone (organizations-delegated-admin.test.ts).
// - moto's CloudTrail has no LookupEvents, so TestConnector's LookupEvents check fails there; a
//   connector with an organisation trail does not make that call.
