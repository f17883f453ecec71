import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { sandboxAwsConnection } from "../src/cloud/sandbox-endpoints";
import { type DroppingRelay, startDroppingRelay } from "./support/dropping-relay";

let dataDir: string;
let cloud: SandboxCloud;
let aws: AwsCloudProvider;
const fast = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 200 };

async function fault(operation: string, code: string, count: number) {
  const res = await fetch(`${cloud.url}/sandbox/control/organizations-fault`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ operation, code, count }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "palisade-org-retry-"));
  cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
  aws = createAwsProvider({ ...sandboxAwsConnection(cloud), retry: fast });
});

afterAll(async () => {
  aws?.close();
  await cloud?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const scp = (name: string, targets: string[]) => ({
  name,
  description: name,
  content: JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" }],
  }),
  targets,
  attach: true,
});

// Organizations answers a write that meets another change in progress with these, and says to
// try again later (https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html#API_AttachPolicy_Errors,
// https://docs.aws.amazon.com/organizations/latest/APIReference/API_UpdatePolicy.html#API_UpdatePolicy_Errors).
describe("the AWS adapter on Organizations' transient errors", () => {
  it("retries them with backoff, and the SCP is written and attached", async () => {
    const entries = await aws.listHierarchy();
    const account = entries.find((e) => e.name === "sandbox-alice")!.externalId;
    const other = entries.find((e) => e.name === "sandbox-bob")!.externalId;
    await fault("AttachPolicy", "ConcurrentModificationException", 2);
    const ref = await aws.applyScp(scp("retry-attach", [account]));
    expect(await aws.listScpTargets(ref.id)).toEqual([account]);

    await fault("UpdatePolicy", "PolicyChangesInProgressException", 1);
    await fault("AttachPolicy", "PolicyChangesInProgressException", 1);
    await fault("DetachPolicy", "TooManyRequestsException", 1);
    await aws.applyScp(scp("retry-attach", [other]));
    expect(await aws.listScpTargets(ref.id)).toEqual([other]);
  });

  it("names the error once the retries are spent", async () => {
    await fault("CreatePolicy", "ConcurrentModificationException", fast.maxAttempts);
    await expect(aws.applyScp(scp("retry-spent", []))).rejects.toMatchObject({
      name: "ConcurrentModificationException",
    });
  });

  it("refuses to inject an error Organizations does not document for the operation", async () => {
    const res = await fetch(`${cloud.url}/sandbox/control/organizations-fault`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "CreatePolicy", code: "PolicyChangesInProgressException" }),
    });
    expect(res.status).toBe(400);
  });
});

// A reset connection is one of the transient errors AWS's SDKs retry
// (https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html): a kept-alive socket
// the endpoint closes just as the client reuses it is ordinary weather on a long-lived server.
describe("the AWS adapter when a connection drops under a request", () => {
  let relay: DroppingRelay;
  let viaRelay: AwsCloudProvider;

  beforeAll(async () => {
    relay = await startDroppingRelay(Number(new URL(cloud.aws.endpoint).port));
    viaRelay = createAwsProvider({ ...sandboxAwsConnection(cloud), endpoint: relay.endpoint, retry: fast });
  });
  afterAll(async () => {
    viaRelay?.close();
    await relay?.close();
  });

  it("asks a read again and returns its whole answer", async () => {
    const direct = await aws.listHierarchy();
    relay.dropNext("ListRoots", "before");
    const relayed = await viaRelay.listHierarchy();
    expect(relayed.map((e) => e.externalId).sort()).toEqual(direct.map((e) => e.externalId).sort());
    expect(relay.seen.filter((o) => o === "ListRoots").length).toBeGreaterThan(1);
  });

  it("writes a policy once when the answer to its creation is lost", async () => {
    const entries = await aws.listHierarchy();
    const account = entries.find((e) => e.name === "sandbox-alice")!.externalId;
    relay.dropNext("CreatePolicy", "after");
    const ref = await viaRelay.applyScp(scp("dropped-create", [account]));
    expect(relay.seen.filter((o) => o === "CreatePolicy")).toHaveLength(2);
    const named = (await aws.listTargetScps(account)).filter((p) => p.name === "dropped-create");
    expect(named).toEqual([expect.objectContaining({ id: ref.id })]);
  });
});
