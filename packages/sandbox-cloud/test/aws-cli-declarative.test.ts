import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCliPresent, type CliCredentials, developerSession, refusal, runAws } from "./aws-cli";
import { type Harness, startHarness } from "./sandbox-harness";

// Declarative policies for EC2 through the AWS CLI v1 (botocore), a client nobody here wrote:
// - the type is enabled on the root (EnablePolicyType with DECLARATIVE_POLICY_EC2,
//   https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html);
// - a document is `{"ec2_attributes": {...}}` with `@@assign` values of the documented attributes
//   and an `exception_message`
//   (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html);
// - the effective policy of the account (DescribeEffectivePolicy) sets the IMDS defaults, and a
//   RunInstances that does not ask for IMDSv2 is refused with the custom message, recorded in
//   CloudTrail with its error (the sandbox refuses where AWS would apply the default: stricter).

const present = awsCliPresent();

let h: Harness;
let management: CliCredentials;
let developer: CliCredentials;
let alice: CliCredentials & { accountId: string };
let accountId: string;

const cli = (region: string, credentials: CliCredentials, args: string[]) =>
  runAws(h.cloud.url, region, credentials, args);
const orgs = (args: string[]) => cli("us-east-1", management, ["organizations", ...args]);

const TYPE = "DECLARATIVE_POLICY_EC2";
const WAIVER = "IMDSv2 is required here; request a waiver at https://palisade.example/req?k=ABC1234";
const doc = (attributes: Record<string, unknown>) => JSON.stringify({ ec2_attributes: attributes });
const IMDS_V2 = doc({
  exception_message: { "@@assign": WAIVER },
  instance_metadata_defaults: {
    http_tokens: { "@@assign": "required" },
    http_put_response_hop_limit: { "@@assign": "2" },
  },
});
const create = (name: string, content: string) =>
  orgs(["create-policy", "--name", name, "--description", name, "--type", TYPE, "--content", content]);
const run = (args: string[] = []) =>
  cli("eu-west-1", developer, ["ec2", "run-instances", "--image-id", "ami-0abcdef1234567890", ...args]);

describe.skipIf(!present)("declarative policies for EC2 through the AWS CLI", () => {
  beforeAll(async () => {
    h = await startHarness();
    management = { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey };
    ({ alice, developer } = await developerSession(h.cloud.url, "payments-dev"));
    accountId = alice.accountId;
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it("validates the documented syntax, and refuses a launch without IMDSv2 with the policy's message", async () => {
    expect(refusal(await create("too-early", IMDS_V2)).code).toBe("PolicyTypeNotEnabledException");
    const rootId = (await orgs(["list-roots"])).json<{ Roots: { Id: string }[] }>().Roots[0]!.Id;
    expect((await orgs(["enable-policy-type", "--root-id", rootId, "--policy-type", TYPE])).stderr).toBe("");
    const roots = (await orgs(["list-roots"])).json<{ Roots: { PolicyTypes: unknown[] }[] }>();
    expect(roots.Roots[0]!.PolicyTypes).toContainEqual({ Type: TYPE, Status: "ENABLED" });

    for (const bad of [
      JSON.stringify({ Version: "2012-10-17", Statement: [] }),
      doc({ instance_metadata_defaults: { http_tokens: { "@@assign": "mandatory" } } }),
      doc({ instance_metadata_defaults: { http_tokens: "required" } }),
      doc({ instance_metadata_defaults: { http_put_response_hop_limit: { "@@assign": "65" } } }),
      doc({ serial_console_access: { status: { "@@append": "disabled" } } }),
      doc({ no_such_attribute: { state: { "@@assign": "enabled" } } }),
      doc({ exception_message: { "@@assign": "x".repeat(1025) } }),
    ]) {
      expect(refusal(await create("bad", bad)).code).toBe("MalformedPolicyDocumentException");
    }
    // One document with each documented attribute is accepted.
    const every = await create(
      "ec2-baseline",
      doc({
        serial_console_access: { status: { "@@assign": "disabled" } },
        image_block_public_access: { state: { "@@assign": "block_new_sharing" } },
        snapshot_block_public_access: { state: { "@@assign": "block_all_sharing" } },
        vpc_block_public_access: {
          internet_gateway_block: {
            mode: { "@@assign": "block_ingress" },
            exclusions_allowed: { "@@assign": "enabled" },
          },
        },
        allowed_images_settings: {
          state: { "@@assign": "audit_mode" },
          image_criteria: { criteria_1: { allowed_image_providers: { "@@append": ["amazon"] } } },
        },
      }),
    );
    expect(every.stderr).toBe("");

    // Before the IMDS policy is attached, an IMDSv1 launch succeeds.
    expect((await run()).stderr).toBe("");

    const created = await create("imds-v2", IMDS_V2);
    expect(created.stderr).toBe("");
    const { Id: policyId, Arn: policyArn } = created.json<{
      Policy: { PolicySummary: { Id: string; Arn: string } };
    }>().Policy.PolicySummary;
    expect(policyArn).toMatch(/\/declarative_policy_ec2\/p-[a-z0-9]+$/);
    const ouId = (await orgs(["list-parents", "--child-id", accountId])).json<{ Parents: { Id: string }[] }>()
      .Parents[0]!.Id;
    expect((await orgs(["attach-policy", "--policy-id", policyId, "--target-id", ouId])).stderr).toBe("");
    const listed = (await orgs(["list-policies-for-target", "--target-id", ouId, "--filter", TYPE])).json<{
      Policies: { Name: string }[];
    }>();
    expect(listed.Policies.map((p) => p.Name)).toEqual(["imds-v2"]);

    const effective = await orgs([
      "describe-effective-policy",
      "--policy-type",
      TYPE,
      "--target-id",
      accountId,
    ]);
    expect(effective.stderr).toBe("");
    const content = JSON.parse(
      effective.json<{ EffectivePolicy: { PolicyContent: string } }>().EffectivePolicy.PolicyContent,
    );
    expect(content.ec2_attributes.instance_metadata_defaults).toEqual({
      http_tokens: "required",
      http_put_response_hop_limit: "2",
    });

    // EC2 reports the defaults as managed by the declarative policy, with its message.
    const defaults = await cli("eu-west-1", developer, ["ec2", "get-instance-metadata-defaults"]);
    expect(defaults.stderr).toBe("");
    expect(defaults.json<{ AccountLevel: Record<string, unknown> }>().AccountLevel).toEqual({
      HttpTokens: "required",
      HttpPutResponseHopLimit: 2,
      ManagedBy: "declarative-policy",
      ManagedExceptionMessage: WAIVER,
    });

    for (const args of [[], ["--metadata-options", "HttpTokens=optional"]]) {
      const refused = refusal(await run(args));
      expect([refused.code, refused.operation]).toEqual(["UnauthorizedOperation", "RunInstances"]);
      expect(refused.message).toContain(WAIVER);
    }
    // Three hops exceed the policy's two.
    expect(
      refusal(await run(["--metadata-options", "HttpTokens=required,HttpPutResponseHopLimit=3"])).code,
    ).toBe("UnauthorizedOperation");
    expect((await run(["--metadata-options", "HttpTokens=required,HttpPutResponseHopLimit=2"])).stderr).toBe(
      "",
    );

    const events = (await cli("eu-west-1", alice, ["cloudtrail", "lookup-events", "--no-paginate"]))
      .json<{ Events: { CloudTrailEvent: string }[] }>()
      .Events.map((e) => JSON.parse(e.CloudTrailEvent) as Record<string, unknown>);
    const refusedEvent = events.find((r) => r.eventName === "RunInstances" && r.errorCode !== undefined);
    expect(refusedEvent).toMatchObject({
      eventSource: "ec2.amazonaws.com",
      errorCode: "Client.UnauthorizedOperation",
      userIdentity: { arn: `arn:aws:sts::${accountId}:assumed-role/Developer/alice` },
    });
    expect(String(refusedEvent?.errorMessage)).toContain(WAIVER);

    // Detached and the type disabled, IMDSv1 launches again.
    expect((await orgs(["detach-policy", "--policy-id", policyId, "--target-id", ouId])).stderr).toBe("");
    expect((await orgs(["disable-policy-type", "--root-id", rootId, "--policy-type", TYPE])).stderr).toBe("");
    expect((await run()).stderr).toBe("");
  }, 180_000);
});
