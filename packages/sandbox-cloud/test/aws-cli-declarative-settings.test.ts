import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  awsCliPresent,
  type CliCredentials,
  type CliResult,
  developerSession,
  refusal,
  runAws,
} from "./aws-cli";
import { type Harness, startHarness } from "./sandbox-harness";

// The EC2 account-level settings that declarative policies govern, through the AWS CLI v1:
// - "Account administrators will not be able to modify the value of the service attribute at the
//   individual account level" and "any noncompliant actions will fail"
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html);
// - each Get/Describe answers `ManagedBy: declarative-policy` when a policy sets the value
//   (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetSerialConsoleAccessStatus.html,
//   API_GetImageBlockPublicAccessState, API_GetSnapshotBlockPublicAccessState,
//   API_VpcBlockPublicAccessOptions, API_GetAllowedImagesSettings);
// - a refused call carries the policy's exception_message and is recorded in CloudTrail with its error.
// Where AWS names no error code, the sandbox answers UnauthorizedOperation.

const present = awsCliPresent();

let h: Harness;
let management: CliCredentials;
let developer: CliCredentials;
let alice: CliCredentials & { accountId: string };
let accountId: string;

const REGION = "eu-west-1";
const cli = (region: string, credentials: CliCredentials, args: string[]) =>
  runAws(h.cloud.url, region, credentials, args);
const orgs = (args: string[]) => cli("us-east-1", management, ["organizations", ...args]);
const ec2 = (...args: string[]) => cli(REGION, developer, ["ec2", ...args]);
const ok = async (out: Promise<CliResult>) => {
  const r = await out;
  expect(r.stderr).toBe("");
  return r.json<Record<string, unknown>>();
};

const TYPE = "DECLARATIVE_POLICY_EC2";
const WAIVER = "EC2 baseline in force; request a waiver at https://palisade.example/req?k=EC2BASE1";
const AMAZON_AMI = "ami-0c02fb55956c7d316";
const OTHER_AMI = "ami-0abcdef1234567890";
const BASELINE = JSON.stringify({
  ec2_attributes: {
    exception_message: { "@@assign": WAIVER },
    serial_console_access: { status: { "@@assign": "disabled" } },
    image_block_public_access: { state: { "@@assign": "block_new_sharing" } },
    snapshot_block_public_access: { state: { "@@assign": "block_all_sharing" } },
    vpc_block_public_access: {
      internet_gateway_block: {
        mode: { "@@assign": "block_ingress" },
        exclusions_allowed: { "@@assign": "disabled" },
      },
    },
    allowed_images_settings: {
      state: { "@@assign": "enabled" },
      image_criteria: { criteria_1: { allowed_image_providers: { "@@append": ["amazon"] } } },
    },
  },
});

describe.skipIf(!present)(
  "EC2 account-level settings under a declarative policy, through the AWS CLI",
  () => {
    beforeAll(async () => {
      h = await startHarness();
      management = { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey };
      ({ alice, developer } = await developerSession(h.cloud.url, "payments-dev"));
      accountId = alice.accountId;
    }, 120_000);
    afterAll(async () => {
      await h?.stop();
    });

    it("reports each setting as managed by the policy, refuses the calls it governs with its message, and allows them once detached", async () => {
      // Without a policy, the account manages its own settings.
      expect(await ok(ec2("get-serial-console-access-status"))).toEqual({
        SerialConsoleAccessEnabled: false,
        ManagedBy: "account",
      });
      expect(await ok(ec2("enable-serial-console-access"))).toEqual({ SerialConsoleAccessEnabled: true });
      expect(await ok(ec2("get-serial-console-access-status"))).toMatchObject({
        SerialConsoleAccessEnabled: true,
      });
      expect(await ok(ec2("disable-serial-console-access"))).toEqual({ SerialConsoleAccessEnabled: false });
      expect(await ok(ec2("get-image-block-public-access-state"))).toEqual({
        ImageBlockPublicAccessState: "unblocked",
        ManagedBy: "account",
      });
      expect(await ok(ec2("get-snapshot-block-public-access-state"))).toEqual({
        State: "unblocked",
        ManagedBy: "account",
      });
      expect(
        (await ok(ec2("describe-vpc-block-public-access-options"))).VpcBlockPublicAccessOptions,
      ).toMatchObject({ InternetGatewayBlockMode: "off", ManagedBy: "account", State: "default-state" });
      expect(await ok(ec2("get-allowed-images-settings"))).toEqual({
        State: "disabled",
        ManagedBy: "account",
      });

      // An instance, an AMI of it and a snapshot of it, to share.
      const launched = await ok(ec2("run-instances", "--image-id", AMAZON_AMI, "--count", "1"));
      const instanceId = (launched.Instances as { InstanceId: string }[])[0]!.InstanceId;
      const { ImageId: imageId } = (await ok(
        ec2("create-image", "--instance-id", instanceId, "--name", "golden"),
      )) as { ImageId: string };
      expect(imageId).toMatch(/^ami-[0-9a-f]{17}$/);
      const snapshots = (await ok(
        ec2("create-snapshots", "--instance-specification", `InstanceId=${instanceId}`),
      )) as { Snapshots: { SnapshotId: string }[] };
      const snapshotId = snapshots.Snapshots[0]!.SnapshotId;
      expect(snapshotId).toMatch(/^snap-[0-9a-f]{17}$/);
      expect(
        refusal(
          await ec2(
            "modify-image-attribute",
            "--image-id",
            "ami-00000000000000000",
            "--launch-permission",
            "Add=[{Group=all}]",
          ),
        ).code,
      ).toBe("InvalidAMIID.NotFound");
      const makeAmiPublic = () =>
        ec2("modify-image-attribute", "--image-id", imageId, "--launch-permission", "Add=[{Group=all}]");
      const makeAmiPrivate = () =>
        ec2("modify-image-attribute", "--image-id", imageId, "--launch-permission", "Remove=[{Group=all}]");
      const shareSnapshot = () =>
        ec2(
          "modify-snapshot-attribute",
          "--snapshot-id",
          snapshotId,
          "--attribute",
          "createVolumePermission",
          "--operation-type",
          "add",
          "--group-names",
          "all",
        );
      expect((await makeAmiPublic()).stderr).toBe("");
      expect((await makeAmiPrivate()).stderr).toBe("");
      expect((await shareSnapshot()).stderr).toBe("");
      expect((await ec2("run-instances", "--image-id", OTHER_AMI)).stderr).toBe("");

      // The baseline attached to the account's OU.
      const rootId = (await orgs(["list-roots"])).json<{ Roots: { Id: string }[] }>().Roots[0]!.Id;
      expect((await orgs(["enable-policy-type", "--root-id", rootId, "--policy-type", TYPE])).stderr).toBe(
        "",
      );
      const created = await orgs([
        "create-policy",
        "--name",
        "ec2-baseline",
        "--description",
        "EC2 baseline",
        "--type",
        TYPE,
        "--content",
        BASELINE,
      ]);
      expect(created.stderr).toBe("");
      const policyId = created.json<{ Policy: { PolicySummary: { Id: string } } }>().Policy.PolicySummary.Id;
      const ouId = (await orgs(["list-parents", "--child-id", accountId])).json<{
        Parents: { Id: string }[];
      }>().Parents[0]!.Id;
      expect((await orgs(["attach-policy", "--policy-id", policyId, "--target-id", ouId])).stderr).toBe("");

      // Each Get/Describe answers the policy's value, managed by it.
      expect(await ok(ec2("get-serial-console-access-status"))).toEqual({
        SerialConsoleAccessEnabled: false,
        ManagedBy: "declarative-policy",
      });
      expect(await ok(ec2("get-image-block-public-access-state"))).toEqual({
        ImageBlockPublicAccessState: "block-new-sharing",
        ManagedBy: "declarative-policy",
      });
      expect(await ok(ec2("get-snapshot-block-public-access-state"))).toEqual({
        State: "block-all-sharing",
        ManagedBy: "declarative-policy",
      });
      expect(
        (await ok(ec2("describe-vpc-block-public-access-options"))).VpcBlockPublicAccessOptions,
      ).toMatchObject({
        AwsAccountId: accountId,
        AwsRegion: REGION,
        InternetGatewayBlockMode: "block-ingress",
        ManagedBy: "declarative-policy",
        ExclusionsAllowed: "not-allowed",
      });
      expect(await ok(ec2("get-allowed-images-settings"))).toEqual({
        State: "enabled",
        ImageCriteria: [{ ImageProviders: ["amazon"] }],
        ManagedBy: "declarative-policy",
      });

      // Each governed call is refused with the policy's message.
      const governed: [string, Promise<CliResult>][] = [
        ["EnableSerialConsoleAccess", ec2("enable-serial-console-access")],
        ["DisableSerialConsoleAccess", ec2("disable-serial-console-access")],
        ["DisableImageBlockPublicAccess", ec2("disable-image-block-public-access")],
        ["ModifyImageAttribute", makeAmiPublic()],
        ["DisableSnapshotBlockPublicAccess", ec2("disable-snapshot-block-public-access")],
        ["ModifySnapshotAttribute", shareSnapshot()],
        [
          "ModifyVpcBlockPublicAccessOptions",
          ec2("modify-vpc-block-public-access-options", "--internet-gateway-block-mode", "off"),
        ],
        ["RunInstances", ec2("run-instances", "--image-id", OTHER_AMI)],
      ];
      for (const [operation, call] of governed) {
        const refused = refusal(await call);
        expect([refused.code, refused.operation]).toEqual(["UnauthorizedOperation", operation]);
        expect(refused.message).toContain(WAIVER);
      }
      // What the policy does not govern still works: an Amazon AMI, the account's own AMI, a private share.
      expect((await ec2("run-instances", "--image-id", AMAZON_AMI)).stderr).toBe("");
      expect((await ec2("run-instances", "--image-id", imageId)).stderr).toBe("");
      expect((await makeAmiPrivate()).stderr).toBe("");
      expect(
        (
          await ec2(
            "modify-image-attribute",
            "--image-id",
            imageId,
            "--launch-permission",
            "Add=[{UserId=111122223333}]",
          )
        ).stderr,
      ).toBe("");

      // CloudTrail records each refusal as EC2 writes it: Client.<code> and the message.
      const events = (await cli(REGION, alice, ["cloudtrail", "lookup-events", "--no-paginate"]))
        .json<{ Events: { CloudTrailEvent: string }[] }>()
        .Events.map((e) => JSON.parse(e.CloudTrailEvent) as Record<string, unknown>);
      for (const [operation] of governed) {
        const refusedEvent = events.find((r) => r.eventName === operation && r.errorCode !== undefined);
        expect(refusedEvent, operation).toMatchObject({
          eventSource: "ec2.amazonaws.com",
          awsRegion: REGION,
          errorCode: "Client.UnauthorizedOperation",
          userIdentity: { arn: `arn:aws:sts::${accountId}:assumed-role/Developer/alice` },
        });
        expect(String(refusedEvent?.errorMessage)).toContain(WAIVER);
      }

      // Detached, the account manages its settings again and the calls are allowed.
      expect((await orgs(["detach-policy", "--policy-id", policyId, "--target-id", ouId])).stderr).toBe("");
      expect(await ok(ec2("enable-serial-console-access"))).toEqual({ SerialConsoleAccessEnabled: true });
      expect((await makeAmiPublic()).stderr).toBe("");
      expect((await shareSnapshot()).stderr).toBe("");
      expect(
        (
          await ok(
            ec2(
              "modify-vpc-block-public-access-options",
              "--internet-gateway-block-mode",
              "block-bidirectional",
            ),
          )
        ).VpcBlockPublicAccessOptions,
      ).toMatchObject({ InternetGatewayBlockMode: "block-bidirectional", ManagedBy: "account" });
      expect((await ec2("run-instances", "--image-id", OTHER_AMI)).stderr).toBe("");

      // The account's own block, without a policy, refuses public sharing too (without the policy's message).
      expect(await ok(ec2("enable-snapshot-block-public-access", "--state", "block-new-sharing"))).toEqual({
        State: "block-new-sharing",
      });
      const own = refusal(await shareSnapshot());
      expect(own.code).toBe("UnauthorizedOperation");
      expect(own.message).not.toContain(WAIVER);
    }, 240_000);
  },
);
