import {
  EnablePolicyTypeCommand,
  ListRootsCommand,
  OrganizationsClient,
} from "@aws-sdk/client-organizations";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus, type HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles } from "../src/db/schema/deployments";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

// A resource control policy guardrail deployed by Palisade on an OU of the sandbox's organisation,
// exercised with the official AWS SDK clients as a member-account role session over the sandbox's
// plain-http endpoint, so aws:SecureTransport is false
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-securetransport).
// The denial names the RCP the way AWS writes it
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html), /req resolves
// it to the guardrail's key, and a waiver for the session's role lets it through until it ends.

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const flatten = (nodes: HierarchyNode[]): HierarchyNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe.each(engines)("an RCP guardrail Palisade deploys on an OU, on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    requester = (await server.addMember({ role: "VISITOR", name: "Alice Engineer" })).credentials;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("denies s3:GetObject without TLS naming the RCP, which /req resolves; a waiver lets the role through until it ends", async () => {
    const sandbox = server.palisade.cloud.sandbox!;
    const sandboxUrl = sandbox.url;
    const connectors = server.client(ConnectorService, admin);
    const aws = await until(
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
      (c) => c?.status === ConnectorStatus.CONNECTED,
    );
    const nodes = flatten((await connectors.listHierarchy({ provider: CloudProvider.AWS })).roots);
    const ou = nodes.find((n) => n.name === "Workloads-Dev");
    const account = nodes.find((n) => n.type === ScopeType.AWS_ACCOUNT && n.name === "payments-dev");
    if (!ou || !account || !aws) throw new Error("the sandbox hierarchy has no Workloads-Dev/payments-dev");

    // Enabling RCPs is the organisation's decision (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html).
    const organizations = new OrganizationsClient({
      endpoint: sandbox.aws.endpoint,
      region: sandbox.aws.region,
      credentials: { accessKeyId: sandbox.aws.accessKeyId, secretAccessKey: sandbox.aws.secretAccessKey },
    });
    const rootId = (await organizations.send(new ListRootsCommand({}))).Roots![0]!.Id!;
    await organizations.send(
      new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "RESOURCE_CONTROL_POLICY" }),
    );
    organizations.destroy();

    // A member-account principal: alice's access key, then a session of the Developer role.
    const key = (await (
      await fetch(`${sandboxUrl}/sandbox/control/access-key`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: account.externalId, principal: "user/alice" }),
      })
    ).json()) as { accessKeyId: string; secretAccessKey: string };
    const sts = new STSClient({ endpoint: sandboxUrl, region: "us-east-1", credentials: key });
    const roleArn = `arn:aws:iam::${account.externalId}:role/Developer`;
    const assumed = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: "alice" }));
    sts.destroy();
    const s3 = new S3Client({
      endpoint: sandboxUrl,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: {
        accessKeyId: assumed.Credentials!.AccessKeyId!,
        secretAccessKey: assumed.Credentials!.SecretAccessKey!,
        sessionToken: assumed.Credentials!.SessionToken!,
      },
    });
    const bucket = `rcp-tls-${Date.now().toString(36)}`;
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "report.csv", Body: "a,b\n" }));
    const get = () =>
      s3
        .send(new GetObjectCommand({ Bucket: bucket, Key: "report.csv" }))
        .then(() => ({ code: "none", message: "" }))
        .catch((e: Error & { Code?: string }) => ({ code: e.name, message: e.message }));
    expect(await get()).toEqual({ code: "none", message: "" });

    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: "TLS only for S3",
      policySlug: "rcp-require-tls-s3",
      scopes: [{ provider: CloudProvider.AWS, externalId: ou.externalId, connectorId: aws.entity?.id ?? "" }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const policyKey = bundle?.key ?? "";
    const row = await until(
      async () =>
        (await server.palisade.database.db.select().from(bundles).where(eq(bundles.key, policyKey)))[0],
      (r) => r?.status === "DEPLOYED" || r?.status === "FAILED",
    );
    expect(row?.status).toBe("DEPLOYED");

    const denied = await get();
    expect(denied.code).toBe("AccessDenied");
    expect(denied.message).toMatch(
      /is not authorized to perform: s3:GetObject on resource: .* with an explicit deny in a resource control policy: arn:aws:organizations::\d{12}:policy\/o-[a-z0-9]+\/resource_control_policy\/p-[a-z0-9]+$/,
    );
    // What a user pastes into /req: the key of the guardrail that denied.
    const resolved = await server.client(PolicyService).resolvePolicyKey({ text: denied.message });
    expect(resolved.key).toBe(policyKey);

    // A waiver for the session holds for the Developer role, until it ends (here: cancelled).
    const { waiver } = await server.client(WaiverService, requester).create({
      key: policyKey,
      duration: 3_600n,
      comment: "reading a report over plain http",
      target: {
        case: "principalArn",
        value: `arn:aws:sts::${account.externalId}:assumed-role/Developer/alice`,
      },
    });
    const reader = server.client(WaiverService, admin);
    const active = await until(
      async () => (await reader.list({ filter: { key: policyKey } })).items[0],
      (w) => w?.status === WaiverStatus.ACTIVE,
    );
    expect(active?.status).toBe(WaiverStatus.ACTIVE);
    expect((await until(get, (o) => o.code === "none")).code).toBe("none");
    await reader.cancel({ target: { case: "id", value: waiver?.entity?.id ?? "" } });
    expect((await until(get, (o) => o.code !== "none")).code).toBe("AccessDenied");
    s3.destroy();
  }, 300_000);
});
