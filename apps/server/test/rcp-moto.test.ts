import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AttachPolicyCommand,
  CreateAccountCommand,
  CreateOrganizationalUnitCommand,
  CreateOrganizationCommand,
  CreatePolicyCommand,
  DeletePolicyCommand,
  DescribePolicyCommand,
  DetachPolicyCommand,
  DisablePolicyTypeCommand,
  EnablePolicyTypeCommand,
  ListAccountsCommand,
  ListPoliciesCommand,
  ListPoliciesForTargetCommand,
  ListRootsCommand,
  ListTargetsForPolicyCommand,
  MoveAccountCommand,
  OrganizationsClient,
} from "@aws-sdk/client-organizations";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MotoServer, motoAvailable, startMotoServer } from "./support/moto-server";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";

// Resource control policies on moto's Organizations (https://docs.getmoto.org/en/latest/docs/services/organizations.html),
// written by people outside Palisade, and on the sandbox: the same lifecycle through the same client
// must give the same answers. Where they differ, the sandbox follows AWS's documentation and the
// difference is asserted below with the page that settles it.

const RCP = "RESOURCE_CONTROL_POLICY" as const;
const document = (statement: Record<string, unknown>) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Principal: "*", Action: "s3:GetObject", Resource: "*", ...statement }],
  });

interface Backend {
  raw: OrganizationsClient;
  rootId: string;
  account: string;
}

async function lifecycle(b: Backend) {
  const names = async (target: string) =>
    ((await b.raw.send(new ListPoliciesForTargetCommand({ TargetId: target, Filter: RCP }))).Policies ?? [])
      .map((p) => p.Name)
      .sort();
  const enabled = await b.raw.send(new EnablePolicyTypeCommand({ RootId: b.rootId, PolicyType: RCP }));
  const managed = (await b.raw.send(new ListPoliciesCommand({ Filter: RCP }))).Policies ?? [];
  const onAccountAtFirst = await names(b.account);
  const created = await b.raw.send(
    new CreatePolicyCommand({ Name: "tls-only", Description: "tls", Type: RCP, Content: document({}) }),
  );
  const id = created.Policy!.PolicySummary!.Id!;
  await b.raw.send(new AttachPolicyCommand({ PolicyId: id, TargetId: b.account }));
  const attached = await names(b.account);
  const targets = (await b.raw.send(new ListTargetsForPolicyCommand({ PolicyId: id }))).Targets?.map(
    (t) => t.TargetId === b.account,
  );
  await b.raw.send(new DetachPolicyCommand({ PolicyId: id, TargetId: b.account }));
  const detached = await names(b.account);
  await b.raw.send(new DeletePolicyCommand({ PolicyId: id }));
  const gone = await b.raw
    .send(new DescribePolicyCommand({ PolicyId: id }))
    .then(() => "found")
    .catch((e: Error) => e.name);
  await b.raw
    .send(new AttachPolicyCommand({ PolicyId: managed[0]!.Id!, TargetId: b.account }))
    .catch(() => {});
  await b.raw.send(new DisablePolicyTypeCommand({ RootId: b.rootId, PolicyType: RCP }));
  return {
    rootTypes: enabled.Root?.PolicyTypes?.filter((t) => t.Type === RCP),
    managed: managed.map((p) => ({ Name: p.Name, Type: p.Type, AwsManaged: p.AwsManaged, Id: p.Id })),
    onAccountAtFirst,
    arnShape:
      /^arn:aws:organizations::\d{12}:policy\/o-[a-z0-9]+\/resource_control_policy\/p-[a-z0-9]+$/.test(
        created.Policy!.PolicySummary!.Arn!,
      ),
    type: created.Policy!.PolicySummary!.Type,
    attached,
    targets,
    detached,
    gone,
    afterDisable: (await b.raw.send(new ListRootsCommand({}))).Roots?.[0]?.PolicyTypes?.filter(
      (t) => t.Type === RCP,
    ),
  };
}

describe.skipIf(!motoAvailable())(
  "resource control policies on moto's Organizations and on the sandbox",
  () => {
    let moto: MotoServer;
    let cloud: SandboxCloud;
    let dataDir: string;
    const backends: Record<"moto" | "sandbox", Backend> = {} as never;

    beforeAll(async () => {
      moto = await startMotoServer();
      const raw = new OrganizationsClient({
        endpoint: moto.url,
        region: "us-east-1",
        credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "moto-secret" },
      });
      await raw.send(new CreateOrganizationCommand({ FeatureSet: "ALL" }));
      const rootId = (await raw.send(new ListRootsCommand({}))).Roots![0]!.Id!;
      const ou = await raw.send(new CreateOrganizationalUnitCommand({ ParentId: rootId, Name: "Workloads" }));
      const account = (
        await raw.send(new CreateAccountCommand({ AccountName: "dev", Email: "dev@example.com" }))
      ).CreateAccountStatus!.AccountId!;
      await raw.send(
        new MoveAccountCommand({
          AccountId: account,
          SourceParentId: rootId,
          DestinationParentId: ou.OrganizationalUnit!.Id!,
        }),
      );
      backends.moto = { raw, rootId, account };

      dataDir = mkdtempSync(join(tmpdir(), "palisade-rcp-moto-"));
      cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
      const sandbox = sandboxOrganizations(cloud);
      const accounts = (await sandbox.send(new ListAccountsCommand({}))).Accounts ?? [];
      backends.sandbox = {
        raw: sandbox,
        rootId: (await sandbox.send(new ListRootsCommand({}))).Roots![0]!.Id!,
        account: accounts.find((a) => a.Name === "sandbox-alice")!.Id!,
      };
    }, 60_000);

    afterAll(async () => {
      for (const b of Object.values(backends)) b.raw.destroy();
      await cloud?.close();
      await moto?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("enable, create, attach, list, detach, delete and disable answer alike", async () => {
      const fromMoto = await lifecycle(backends.moto);
      const fromSandbox = await lifecycle(backends.sandbox);
      expect(fromSandbox).toEqual(fromMoto);
      expect(fromSandbox).toMatchObject({
        rootTypes: [{ Type: RCP, Status: "ENABLED" }],
        managed: [{ Name: "RCPFullAWSAccess", Type: RCP, AwsManaged: true, Id: "p-RCPFullAWSAccess" }],
        onAccountAtFirst: ["RCPFullAWSAccess"],
        arnShape: true,
        attached: ["RCPFullAWSAccess", "tls-only"],
        targets: [true],
        detached: ["RCPFullAWSAccess"],
        gone: "PolicyNotFoundException",
      });
    }, 60_000);

    it("differs where moto does not check what AWS documents; the sandbox follows AWS", async () => {
      const outcome = (b: Backend, content: string) =>
        b.raw
          .send(
            new CreatePolicyCommand({
              Name: `x${Math.random().toString(36).slice(2, 8)}`,
              Description: "x",
              Type: RCP,
              Content: content,
            }),
          )
          .then(() => "created")
          .catch((e: Error) => e.name);
      // Before the type is enabled (the lifecycle above disabled it): moto creates the policy; the
      // sandbox refuses, stricter, as it refuses the attach AWS refuses
      // (https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html, PolicyTypeNotEnabledException).
      expect(await outcome(backends.moto, document({}))).toBe("created");
      expect(await outcome(backends.sandbox, document({}))).toBe("PolicyTypeNotEnabledException");
      for (const b of Object.values(backends))
        await b.raw.send(new EnablePolicyTypeCommand({ RootId: b.rootId, PolicyType: RCP }));
      // RCP syntax (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html):
      // Allow only in RCPFullAWSAccess, Principal "*" only, no NotPrincipal; supported services only
      // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html).
      for (const invalid of [
        document({ Effect: "Allow" }),
        document({ Principal: undefined, NotPrincipal: { AWS: "*" } }),
        document({ Action: "ec2:RunInstances" }),
      ]) {
        expect(await outcome(backends.moto, invalid)).toBe("created");
        expect(await outcome(backends.sandbox, invalid)).toBe("MalformedPolicyDocumentException");
      }
      // "You cannot detach this policy" (RCP syntax page, on RCPFullAWSAccess): moto detaches it.
      const detachFull = (b: Backend) =>
        b.raw
          .send(new DetachPolicyCommand({ PolicyId: "p-RCPFullAWSAccess", TargetId: b.account }))
          .then(() => "detached")
          .catch((e: Error) => e.name);
      expect(await detachFull(backends.moto)).toBe("detached");
      expect(await detachFull(backends.sandbox)).toBe("ConstraintViolationException");
    }, 60_000);
  },
);
