import { EnablePolicyTypeCommand, ListRootsCommand } from "@aws-sdk/client-organizations";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { AssumeRoleCommand } from "@aws-sdk/client-sts";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxAccessKey } from "../../../packages/sandbox-cloud/test/aws-cli";
import { jobs } from "../src/jobs/jobs-schema";
import { enqueueWaiverExpiry } from "../src/jobs/waiver-expiry-job";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { expectDeployed, flatten } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { roleSession, sandboxOrganizations, sandboxS3, sandboxSts } from "./support/sandbox-aws-clients";
import { cloudEvaluationEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

// A resource control policy guardrail deployed by Palisade on an OU of the sandbox's organisation,
// exercised with the official AWS SDK clients as a member-account role session over the sandbox's
// plain-http endpoint, so aws:SecureTransport is false
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-securetransport).
// The denial names the RCP the way AWS writes it
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html), /req resolves
// it to the guardrail's key, and a waiver for the session's role lets it through until it ends.

describe.each(cloudEvaluationEngines)("an RCP guardrail Palisade deploys on an OU, on %s", (engine) => {
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

  /** The connected AWS connector, Workloads-Dev and its payments-dev, with RCPs enabled. */
  async function organisation() {
    const sandbox = server.palisade.cloud.sandbox!;
    const sandboxUrl = sandbox.url;
    const connectors = server.client(ConnectorService, admin);
    const aws = await waitFor(
      "the AWS connector to be connected",
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
      (c) => c?.status === ConnectorStatus.CONNECTED,
      60_000,
    );
    const nodes = flatten((await connectors.listHierarchy({ provider: CloudProvider.AWS })).roots);
    const ou = nodes.find((n) => n.name === "Workloads-Dev");
    const account = nodes.find((n) => n.type === ScopeType.AWS_ACCOUNT && n.name === "payments-dev");
    if (!ou || !account || !aws) throw new Error("the sandbox hierarchy has no Workloads-Dev/payments-dev");

    // Enabling RCPs is the organisation's decision (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html).
    const organizations = sandboxOrganizations(sandbox);
    const rootId = (await organizations.send(new ListRootsCommand({}))).Roots![0]!.Id!;
    await organizations
      .send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: "RESOURCE_CONTROL_POLICY" }))
      .catch((e: Error) => {
        if (e.name !== "PolicyTypeAlreadyEnabledException") throw e;
      });
    organizations.destroy();

    return { sandbox, sandboxUrl, aws, ou, account };
  }

  it("denies s3:GetObject without TLS naming the RCP, which /req resolves; a waiver lets the role through until it ends", async () => {
    const { sandboxUrl, aws, ou, account } = await organisation();
    // A member-account principal: alice's access key, then a session of the Developer role.
    const key = await sandboxAccessKey(sandboxUrl, account.externalId);
    const roleArn = `arn:aws:iam::${account.externalId}:role/Developer`;
    const s3 = sandboxS3(sandboxUrl, await roleSession(sandboxUrl, key, roleArn, "alice"));
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
    await expectDeployed(server.palisade.database.db, bundle?.entity?.id ?? "");

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
    const active = await waitFor(
      "the waiver to be ACTIVE",
      async () => (await reader.list({ filter: { key: policyKey } })).items[0],
      (w) => w?.status === WaiverStatus.ACTIVE,
      60_000,
    );
    expect(active?.status).toBe(WaiverStatus.ACTIVE);
    expect((await waitFor("the read to go through", get, (o) => o.code === "none", 60_000)).code).toBe(
      "none",
    );
    await reader.cancel({ target: { case: "id", value: waiver?.entity?.id ?? "" } });
    expect((await waitFor("the read to be denied", get, (o) => o.code !== "none", 60_000)).code).toBe(
      "AccessDenied",
    );
    s3.destroy();
  }, 300_000);
  // RCPs apply to calls to the resources of member accounts whoever the caller is, principals of
  // accounts outside the organisation included
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html); the
  // sandbox's S3 refuses other accounts' callers before any RCP, so the outside call here is
  // sts:AssumeRole on a role whose trust policy allows the outside account.
  it("denies sts:AssumeRole by a principal outside the organisation naming the RCP; a waiver lets it through until it expires; the denials appear as events", async () => {
    const { sandboxUrl, aws, ou, account } = await organisation();
    const control = async (path: string, body: unknown) => {
      const response = await fetch(`${sandboxUrl}/sandbox/control/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(200);
      return response.json();
    };
    // A vendor's CI account, in no organisation, trusted by payments-dev's ci-deployer role.
    const outsideAccount = "999900001111";
    const vendor = `arn:aws:iam::${outsideAccount}:user/vendor-ci`;
    const roleArn = `arn:aws:iam::${account.externalId}:role/ci-deployer`;
    await control("role-trust", {
      roleArn,
      trustPolicy: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: `arn:aws:iam::${outsideAccount}:root` },
            Action: "sts:AssumeRole",
          },
        ],
      },
    });
    const key = (await control("access-key", { principal: vendor })) as {
      accessKeyId: string;
      secretAccessKey: string;
      principalArn: string;
    };
    expect(key.principalArn).toBe(vendor);
    const sts = sandboxSts(sandboxUrl, key);
    const assume = () =>
      sts
        .send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: "vendor-ci" }))
        .then(() => ({ code: "none", message: "" }))
        .catch((e: Error) => ({ code: e.name, message: e.message }));
    expect(await assume()).toEqual({ code: "none", message: "" });

    const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
      name: "Organisation principals only for STS",
      policySlug: "rcp-sts-assume-role-organization-principals-only",
      scopes: [{ provider: CloudProvider.AWS, externalId: ou.externalId, connectorId: aws.entity?.id ?? "" }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const policyKey = bundle?.key ?? "";
    await expectDeployed(server.palisade.database.db, bundle?.entity?.id ?? "");

    const denied = await waitFor(
      "the outside AssumeRole to be denied",
      assume,
      (o) => o.code !== "none",
      60_000,
    );
    expect(denied.code).toBe("AccessDenied");
    expect(denied.message).toMatch(
      new RegExp(
        `^User: ${vendor} is not authorized to perform: sts:AssumeRole on resource: ${roleArn} with an explicit deny in a resource control policy: arn:aws:organizations::\\d{12}:policy/o-[a-z0-9]+/resource_control_policy/p-[a-z0-9]+$`,
      ),
    );
    const resolved = await server.client(PolicyService).resolvePolicyKey({ text: denied.message });
    expect(resolved.key).toBe(policyKey);

    // The waiver for the vendor's user holds until it expires.
    const { waiver } = await server.client(WaiverService, requester).create({
      key: policyKey,
      duration: 3_600n,
      comment: "vendor CI deploys the release",
      target: { case: "principalArn", value: vendor },
    });
    const waiverId = waiver?.entity?.id ?? "";
    const reader = server.client(WaiverService, admin);
    const active = await waitFor(
      "the waiver to be ACTIVE",
      async () => (await reader.list({ filter: { key: policyKey } })).items[0],
      (w) => w?.status === WaiverStatus.ACTIVE,
      60_000,
    );
    expect(active?.status).toBe(WaiverStatus.ACTIVE);
    expect(
      (await waitFor("the outside AssumeRole to go through", assume, (o) => o.code === "none", 60_000)).code,
    ).toBe("none");

    // An hour is the shortest waiver: its end is brought forward to now, and the expiry job that
    // runs at each waiver's end expires it and takes it out of the organisation's RCP.
    await server.palisade.database.db
      .update(waivers)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(waivers.id, waiverId));
    await enqueueWaiverExpiry(server.palisade.jobs);
    const expired = await waitFor(
      "the waiver to be EXPIRED",
      async () => (await reader.list({ filter: { key: policyKey } })).items[0],
      (w) => w?.status === WaiverStatus.EXPIRED,
      60_000,
    );
    expect(expired?.status).toBe(WaiverStatus.EXPIRED);
    const again = await waitFor(
      "the outside AssumeRole to be denied again",
      assume,
      (o) => o.code !== "none",
      60_000,
    );
    expect(again.code).toBe("AccessDenied");
    expect((await server.client(PolicyService).resolvePolicyKey({ text: again.message })).key).toBe(
      policyKey,
    );
    sts.destroy();

    // sts:AssumeRole is a management event, recorded in the role's account and delivered by the
    // organisation trail: Palisade's events show the denials of the outside caller as preventions by
    // this guardrail on payments-dev. (S3 object calls are data events, which the organisation trail
    // here does not record, so the TLS denial above has none.)
    const events = server.client(PolicyEventStoreService, admin);
    const preventions = await fetchUntil(
      async () => {
        const { jobId } = await events.triggerFetch({ connectorId: aws.entity?.id ?? "" });
        await waitFor(
          "the event fetch to finish",
          async () => (await server.palisade.database.db.select().from(jobs).where(eq(jobs.id, jobId)))[0],
          (j) => j?.status === "SUCCEEDED" || j?.status === "FAILED",
          60_000,
        );
        const { items } = await events.listEvents({
          filter: { type: [EventType.PREVENTION], policyId: bundle?.entity?.id ?? "" },
        });
        return items;
      },
      (items) => items.some((e) => e.user?.identifier === vendor),
      60_000,
    );
    const event = preventions.find((e) => e.user?.identifier === vendor);
    expect(event?.policyDeployment?.key).toBe(policyKey);
    expect(event?.resource?.scope?.name).toBe("payments-dev");
  }, 300_000);
});
