import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { ContextValue } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { performAws } from "../enforce/aws-request";
import type { SandboxRequest, SandboxResponse } from "../http/types";
import type { AwsResource } from "../state/model";
import type { StateStore } from "../state/store";
import { apiCallOf } from "./api-calls";
import { AwsError, authenticateAws } from "./common";
import { declarativeRefusal, runInstancesRequest } from "./declarative-ec2";
import { effectiveDeclarative } from "./declarative-effective";
import { EC2_ACCOUNT_ACTIONS } from "./ec2-account-actions";
import { getInstanceMetadataDefaults } from "./ec2-metadata-defaults";
import { elements } from "./s3/s3-xml";
import { scpDenialError } from "./service-errors";
import { type WireCaller, wireCaller } from "./wire-caller";

/**
 * Amazon EC2 on its Query protocol (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html):
 * RunInstances and DescribeInstances, and the account-level settings declarative policies govern
 * (ec2-account-actions.ts), authorised by the SCPs in force and recorded in CloudTrail.
 */
const XMLNS = "http://ec2.amazonaws.com/doc/2016-11-15/";

/**
 * EC2's error response (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html):
 * `<Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>`.
 */
export function ec2Error(err: AwsError): SandboxResponse {
  return {
    status: err.status,
    headers: { "content-type": "text/xml;charset=UTF-8" },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error>${elements([
      ["Code", err.code],
      ["Message", err.message],
    ])}</Error></Errors><RequestID>${randomUUID()}</RequestID></Response>`,
  };
}

function ec2Result(action: string, body: string): SandboxResponse {
  return {
    status: 200,
    headers: { "content-type": "text/xml;charset=UTF-8" },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${XMLNS}"><requestId>${randomUUID()}</requestId>${body}</${action}Response>`,
  };
}

/** EC2 answers a refused signature with AuthFailure (the common client errors of the EC2 API reference). */
function authFailure(err: AwsError): AwsError {
  if (["InvalidClientTokenId", "SignatureDoesNotMatch"].includes(err.code)) {
    return new AwsError("AuthFailure", "AWS was not able to validate the provided access credentials", 401);
  }
  return err;
}

const MAX_LAUNCH = 20;

/** `Prefix.N.Field` members of a Query request, in order. */
function members(params: URLSearchParams, prefix: string): Map<string, string>[] {
  const found = new Map<number, Map<string, string>>();
  for (const [name, value] of params) {
    const m = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d+)\\.(.+)$`).exec(name);
    if (!m) continue;
    const index = Number(m[1]);
    if (!found.has(index)) found.set(index, new Map());
    found.get(index)!.set(m[2]!, value);
  }
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, v]) => v);
}

/** Tags a TagSpecification gives one resource type. */
function tagsFor(params: URLSearchParams, resourceType: string): [string, string][] {
  return members(params, "TagSpecification")
    .filter((spec) => spec.get("ResourceType") === resourceType)
    .flatMap((spec) => {
      const tags = new Map<number, [string, string]>();
      for (const [field, value] of spec) {
        const m = /^Tag\.(\d+)\.(Key|Value)$/.exec(field);
        if (!m) continue;
        const tag = tags.get(Number(m[1])) ?? ["", ""];
        tag[m[2] === "Key" ? 0 : 1] = value;
        tags.set(Number(m[1]), tag);
      }
      return [...tags.values()];
    });
}

function tagKeys(tags: [string, string][]): Record<string, ContextValue> {
  if (tags.length === 0) return {};
  return {
    ...Object.fromEntries(tags.map(([k, v]) => [`aws:RequestTag/${k}`, v])),
    "aws:TagKeys": tags.map(([k]) => k),
  };
}

/** An instance as EC2 describes it; a launch answers its instances as still pending. */
function instanceXml(r: AwsResource, launching = false): string {
  const p = r.properties;
  const state = launching ? "pending" : String(p.state ?? "running");
  const code = { pending: 0, running: 16, "shutting-down": 32, terminated: 48, stopping: 64, stopped: 80 }[
    state
  ];
  const tags = (p.tags as [string, string][] | undefined) ?? [];
  return `<item>${elements([
    ["instanceId", r.name],
    ["imageId", String(p.imageId ?? "ami-0c02fb55956c7d316")],
  ])}<instanceState>${elements([
    ["code", code ?? 16],
    ["name", state],
  ])}</instanceState>${elements([
    ["instanceType", String(p.instanceType ?? "m1.small")],
    ["launchTime", p.launchTime as string | undefined],
  ])}<placement>${elements([["availabilityZone", `${r.region}a`]])}</placement><metadataOptions>${elements([
    ["state", "applied"],
    ["httpTokens", String(p.metadataHttpTokens ?? "optional")],
    ["httpPutResponseHopLimit", Number(p.metadataHttpPutResponseHopLimit ?? 1)],
    ["httpEndpoint", "enabled"],
  ])}</metadataOptions>${
    tags.length > 0
      ? `<tagSet>${tags
          .map(
            ([key, value]) =>
              `<item>${elements([
                ["key", key],
                ["value", value],
              ])}</item>`,
          )
          .join("")}</tagSet>`
      : ""
  }</item>`;
}

/** One reservation per launch; the sandbox keeps the instance's, derived from its id. */
const reservationOf = (instanceId: string) =>
  `r-${createHash("sha256").update(instanceId).digest("hex").slice(0, 17)}`;

function runInstances(store: StateStore, who: WireCaller, params: URLSearchParams): SandboxResponse {
  const { account } = who;
  const region = who.signed.region;
  const imageId = params.get("ImageId");
  const min = Number(params.get("MinCount"));
  const max = Number(params.get("MaxCount"));
  if (!imageId || !Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) {
    throw new AwsError(
      "MissingParameter",
      "The request must contain the parameters ImageId, MinCount and MaxCount (1 <= MinCount <= MaxCount).",
    );
  }
  if (max > MAX_LAUNCH) {
    throw new AwsError(
      "InstanceLimitExceeded",
      `You have requested more instances (${max}) than your current instance limit of ${MAX_LAUNCH} allows for the specified instance type.`,
    );
  }
  const instanceType = params.get("InstanceType") ?? "m1.small";
  // Without MetadataOptions an instance gets the defaults: tokens optional, one hop
  // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceMetadataOptionsRequest.html).
  const tokens = params.get("MetadataOptions.HttpTokens") ?? "optional";
  const hops = params.get("MetadataOptions.HttpPutResponseHopLimit");
  const instanceTags = tagsFor(params, "instance");
  const volumeTags = tagsFor(params, "volume");
  const devices = members(params, "BlockDeviceMapping");
  const volume = devices.find((d) => d.has("Ebs.VolumeSize") || d.has("Ebs.Encrypted"));
  const arn = (type: string, id = "*", owner = account.id) => `arn:aws:ec2:${region}:${owner}:${type}/${id}`;
  // The resources RunInstances is authorised on, each with its own condition keys
  // (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html).
  const resources = [
    {
      arn: arn("instance"),
      context: {
        "ec2:InstanceType": instanceType,
        "ec2:MetadataHttpTokens": tokens,
        ...(hops ? { "ec2:MetadataHttpPutResponseHopLimit": hops } : {}),
        ...tagKeys(instanceTags),
      },
    },
    {
      arn: arn("volume"),
      context: {
        // An unencrypted root volume unless the request asks for encryption.
        "ec2:Encrypted": volume?.get("Ebs.Encrypted") ?? "false",
        ...(volume?.get("Ebs.VolumeSize") ? { "ec2:VolumeSize": volume.get("Ebs.VolumeSize")! } : {}),
        ...tagKeys(volumeTags),
      },
    },
    { arn: arn("image", imageId, ""), context: {} },
    { arn: arn("network-interface"), context: {} },
    { arn: arn("security-group"), context: {} },
    { arn: arn("subnet"), context: {} },
  ];
  const dryRun = params.get("DryRun") === "true";
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account,
      action: "ec2:RunInstances",
      resources,
      region,
      context: { "ec2:ImageID": imageId },
      // The parameters as the request states them: MetadataOptions only when it has them.
      requestParameters: apiCallOf({
        action: "ec2:RunInstances",
        resource: "*",
        accountId: account.id,
        region,
        context: {
          "ec2:ImageID": imageId,
          "ec2:InstanceType": instanceType,
          ...(params.get("MetadataOptions.HttpTokens") ? { "ec2:MetadataHttpTokens": tokens } : {}),
          ...(hops ? { "ec2:MetadataHttpPutResponseHopLimit": hops } : {}),
          ...(volume?.get("Ebs.VolumeSize") ? { "ec2:VolumeSize": volume.get("Ebs.VolumeSize")! } : {}),
          ...(volume?.get("Ebs.Encrypted") ? { "ec2:Encrypted": volume.get("Ebs.Encrypted")! } : {}),
          ...(instanceTags.find(([k]) => k === "Owner")
            ? { "aws:RequestTag/Owner": instanceTags.find(([k]) => k === "Owner")![1] }
            : {}),
        },
      }).requestParameters,
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
    },
    () => {
      const aws = store.state.aws;
      const metadata = {
        httpTokens: params.get("MetadataOptions.HttpTokens"),
        httpEndpoint: params.get("MetadataOptions.HttpEndpoint"),
        hopLimit: hops,
        instanceMetadataTags: params.get("MetadataOptions.InstanceMetadataTags"),
      };
      const refused = declarativeRefusal(
        effectiveDeclarative(aws, account.id),
        runInstancesRequest(aws, account.id, metadata, imageId),
      );
      if (refused) throw refused;
      if (dryRun) {
        throw new AwsError("DryRunOperation", "Request would have succeeded, but DryRun flag is set.", 412);
      }
      const launchTime = store
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, ".000Z");
      const launched: AwsResource[] = [];
      for (let i = 0; i < max; i++) {
        const id = `i-${randomBytes(9).toString("hex").slice(0, 17)}`;
        launched.push({
          arn: arn("instance", id),
          type: "AWS::EC2::Instance",
          accountId: account.id,
          region,
          name: id,
          properties: {
            instanceType,
            imageId,
            metadataHttpTokens: tokens,
            metadataHttpPutResponseHopLimit: Number(hops ?? 1),
            state: "running",
            launchTime,
            tags: instanceTags,
          },
        });
      }
      store.state.aws.resources.push(...launched);
      return {
        result: launched,
        responseElements: {
          reservationId: reservationOf(launched[0]!.name),
          ownerId: account.id,
          instancesSet: {
            items: launched.map((r) => ({
              instanceId: r.name,
              imageId,
              instanceType,
              instanceState: { code: 0, name: "pending" },
            })),
          },
        },
      };
    },
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  const launched = outcome.result;
  return ec2Result(
    "RunInstances",
    `${elements([
      ["reservationId", reservationOf(launched[0]!.name)],
      ["ownerId", account.id],
    ])}<groupSet/><instancesSet>${launched.map((r) => instanceXml(r, true)).join("")}</instancesSet>`,
  );
}

function describeInstances(store: StateStore, who: WireCaller, params: URLSearchParams): SandboxResponse {
  const region = who.signed.region;
  const ids = [...params].filter(([k]) => /^InstanceId\.\d+$/.test(k)).map(([, v]) => v);
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account: who.account,
      action: "ec2:DescribeInstances",
      resources: [{ arn: "*" }],
      region,
      context: {},
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
    },
    () => {
      const instances = store.state.aws.resources.filter(
        (r) => r.type === "AWS::EC2::Instance" && r.accountId === who.account.id && r.region === region,
      );
      const missing = ids.find((id) => !instances.some((r) => r.name === id));
      if (missing) {
        throw new AwsError("InvalidInstanceID.NotFound", `The instance ID '${missing}' does not exist`);
      }
      const chosen = ids.length > 0 ? instances.filter((r) => ids.includes(r.name)) : instances;
      return { result: chosen, responseElements: null };
    },
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  const reservations = outcome.result
    .map(
      (r) =>
        `<item>${elements([
          ["reservationId", reservationOf(r.name)],
          ["ownerId", r.accountId],
        ])}<groupSet/><instancesSet>${instanceXml(r)}</instancesSet></item>`,
    )
    .join("");
  return ec2Result("DescribeInstances", `<reservationSet>${reservations}</reservationSet>`);
}

/** A Query request to EC2, signed with SigV4 for the service `ec2`. */
export function handleEc2(store: StateStore, req: SandboxRequest): SandboxResponse {
  try {
    if (req.method.toUpperCase() !== "POST") {
      throw new AwsError("InvalidAction", "The sandbox serves EC2 Query requests as POST only.");
    }
    const signed = authenticateAws(store.state.aws, req, new Date(), "query");
    if (signed instanceof AwsError) throw authFailure(signed);
    const who = wireCaller(store.state.aws, signed, req);
    const params = new URLSearchParams(req.body.toString());
    const action = params.get("Action") ?? "";
    if (action === "RunInstances") return runInstances(store, who, params);
    if (action === "DescribeInstances") return describeInstances(store, who, params);
    if (action === "GetInstanceMetadataDefaults")
      return ec2Result(action, getInstanceMetadataDefaults(store, who));
    const accountAction = EC2_ACCOUNT_ACTIONS[action];
    if (accountAction) return ec2Result(action, accountAction(store, who, action, params));
    throw new AwsError("InvalidAction", `The action ${action} is not valid for this web service.`);
  } catch (err) {
    if (err instanceof AwsError) return ec2Error(authFailure(err));
    throw err;
  }
}
