import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { WaiverApprovalMode, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  awsCliPresent,
  type CliCredentials,
  type CliResult,
  developerSession,
  refusal,
  runAws,
} from "../../../packages/sandbox-cloud/test/aws-cli";
import { jobs } from "../src/jobs/jobs-schema";
import { flatten, waitForBundleStatus } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { cloudEvaluationEngines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";
import { fetchUntil } from "./support/trail-wait";

// A guardrail deployed by Palisade (its server and its AWS adapter, against the sandbox's
// Organizations) is tested the way a user tests it: with the AWS CLI, as a member-account role
// session. Each denial is the service's documented error:
// - S3 AccessDenied (403) naming the SCP: https://docs.aws.amazon.com/AmazonS3/latest/userguide/troubleshoot-403-errors.html
// - EC2 UnauthorizedOperation with an encoded message: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html
// - IAM AccessDenied: https://docs.aws.amazon.com/IAM/latest/APIReference/CommonErrors.html
// A waiver for the session (stored as its role, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn)
// lets the calls through; cancelled, they are denied again.

const present = awsCliPresent();

/** A call's outcome: the CLI's refusal, or code "none" when it succeeded. */
function outcome(out: CliResult) {
  const refused = refusal(out);
  return { ...refused, code: refused.code ?? (out.code === 0 ? "none" : out.stderr) };
}

const GUARDRAILS = [
  { slug: "protect-s3-bucket-public-access-block", name: "Bucket Block Public Access" },
  { slug: "require-ec2-imdsv2", name: "IMDSv2 only" },
  { slug: "deny-iam-user-creation", name: "No IAM users" },
] as const;

describe.skipIf(!present).each(cloudEvaluationEngines)(
  "the AWS CLI against guardrails Palisade deploys, on %s",
  (engine) => {
    let server: TestServer;
    let admin: Credentials;
    let requester: Credentials;
    let sandboxUrl: string;
    let accountId: string;
    let developer: CliCredentials;
    const bucket = `guarded-${Date.now().toString(36)}`;
    let users = 0;

    const cli = (region: string, args: string[]) => runAws(sandboxUrl, region, developer, args);
    const calls = {
      s3: () =>
        cli("us-east-1", [
          "s3api",
          "put-public-access-block",
          "--bucket",
          bucket,
          "--public-access-block-configuration",
          "BlockPublicAcls=false,IgnorePublicAcls=false,BlockPublicPolicy=false,RestrictPublicBuckets=false",
        ]),
      ec2: () =>
        cli("eu-west-1", ["ec2", "run-instances", "--image-id", "ami-0abcdef1234567890", "--count", "1"]),
      iam: () => cli("us-east-1", ["iam", "create-user", "--user-name", `contractor-${++users}`]),
    };
    const outcomes = async () => ({
      s3: outcome(await calls.s3()),
      ec2: outcome(await calls.ec2()),
      iam: outcome(await calls.iam()),
    });

    beforeAll(async () => {
      server = await startTestServer(engine, { PALISADE_SANDBOX: "true", SANDBOX_ACTIVITY: "false" });
      admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
      requester = (await server.addMember({ role: "VISITOR", name: "Alice Engineer" })).credentials;
      sandboxUrl = server.palisade.cloud.sandbox?.url ?? "";
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("succeed before, fail with AWS's errors under, pass under a waiver for, and fail after the waiver of each guardrail", async () => {
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
      accountId = account.externalId;

      // A member-account principal: alice's access key, then a session of the Developer role.
      ({ developer } = await developerSession(sandboxUrl, accountId));
      const session = `arn:aws:sts::${accountId}:assumed-role/Developer/alice`;

      expect((await cli("us-east-1", ["s3api", "create-bucket", "--bucket", bucket])).stderr).toBe("");
      expect(await outcomes()).toMatchObject({
        s3: { code: "none" },
        ec2: { code: "none" },
        iam: { code: "none" },
      });

      const deployer = server.client(DeploymentManagerService, admin);
      const keys: Record<string, string> = {};
      const ids: Record<string, string> = {};
      for (const g of GUARDRAILS) {
        const { bundle } = await deployer.createBundle({
          name: g.name,
          policySlug: g.slug,
          scopes: [
            { provider: CloudProvider.AWS, externalId: ou.externalId, connectorId: aws.entity?.id ?? "" },
          ],
          mode: DeploymentMode.PREVENT,
          isVisible: true,
          waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
        });
        keys[g.slug] = bundle?.key ?? "";
        ids[g.slug] = bundle?.entity?.id ?? "";
      }
      for (const g of GUARDRAILS) {
        const row = await waitForBundleStatus(
          server.palisade.database.db,
          ids[g.slug]!,
          ["DEPLOYED", "FAILED"],
          60_000,
        );
        expect(row.status, g.slug).toBe("DEPLOYED");
      }

      const scp =
        /with an explicit deny in a service control policy: arn:aws:organizations::\d{12}:policy\/o-[a-z0-9]+\/service_control_policy\/p-[a-z0-9]+$/;
      const denied = await outcomes();
      expect(denied.s3).toMatchObject({ code: "AccessDenied", operation: "PutPublicAccessBlock" });
      expect(denied.s3.message).toMatch(
        new RegExp(
          `^User: ${session} is not authorized to perform: s3:PutBucketPublicAccessBlock on resource: "arn:aws:s3:::${bucket}" `,
        ),
      );
      expect(denied.s3.message).toMatch(scp);
      expect(denied.ec2).toMatchObject({ code: "UnauthorizedOperation", operation: "RunInstances" });
      expect(denied.ec2.message).toMatch(
        /^You are not authorized to perform this operation\. .*Encoded authorization failure message: \S+$/,
      );
      expect(denied.iam).toMatchObject({ code: "AccessDenied", operation: "CreateUser" });
      expect(denied.iam.message).toMatch(scp);

      // Palisade's Events show each denial as a prevention by its guardrail, read from the organisation trail.
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
          const { items } = await events.listEvents({ filter: { type: [EventType.PREVENTION] } });
          return items;
        },
        (items) => GUARDRAILS.every((g) => items.some((e) => e.policyDeployment?.key === keys[g.slug])),
        60_000,
      );
      for (const g of GUARDRAILS) {
        const event = preventions.find((e) => e.policyDeployment?.key === keys[g.slug]);
        expect(event, g.slug).toBeDefined();
        expect(event?.resource?.scope?.name).toBe("payments-dev");
      }

      // A waiver requested for the session holds for the Developer role's sessions.
      const waiverIds: string[] = [];
      for (const g of GUARDRAILS) {
        const { waiver } = await server.client(WaiverService, requester).create({
          key: keys[g.slug]!,
          duration: 3_600n,
          comment: "testing with the AWS CLI",
          target: { case: "principalArn", value: session },
        });
        waiverIds.push(waiver?.entity?.id ?? "");
      }
      const reader = server.client(WaiverService, admin);
      for (const g of GUARDRAILS) {
        const active = await waitFor(
          `the waiver of ${g.slug} to be ACTIVE`,
          async () => (await reader.list({ filter: { key: keys[g.slug]! } })).items[0],
          (w) => w?.status === WaiverStatus.ACTIVE,
          60_000,
        );
        expect(active?.status, g.slug).toBe(WaiverStatus.ACTIVE);
      }
      expect(await outcomes()).toMatchObject({
        s3: { code: "none" },
        ec2: { code: "none" },
        iam: { code: "none" },
      });

      for (const id of waiverIds) await reader.cancel({ target: { case: "id", value: id } });
      // The SCPs are updated without the waiver; until then AWS, like the sandbox, still lets the calls through.
      const again = await waitFor(
        "every call to be denied again",
        outcomes,
        (o) => o.s3.code !== "none" && o.ec2.code !== "none" && o.iam.code !== "none",
        60_000,
      );
      expect(again).toMatchObject({
        s3: { code: "AccessDenied" },
        ec2: { code: "UnauthorizedOperation" },
        iam: { code: "AccessDenied" },
      });
    }, 300_000);
  },
);
