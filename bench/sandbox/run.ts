// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signRequest } from "@palisade/sandbox-cloud/aws/sigv4";
import { startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { percentile } from "../support/percentile";

/** Throughput of the sandbox cloud on loopback: `/sandbox/try` decisions and CloudTrail LookupEvents pages. */
const RUN_MS = Number(process.env.BENCH_MS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

interface Row {
  scenario: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  mix: string;
}

async function measure(
  scenario: string,
  call: (i: number) => Promise<string>,
  concurrency = CONCURRENCY,
): Promise<Row> {
  for (let i = 0; i < 50; i++) await call(i);
  const latencies: number[] = [];
  const tally = new Map<string, number>();
  let issued = 0;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() - start < RUN_MS) {
      const t = performance.now();
      const outcome = await call(issued++);
      latencies.push(performance.now() - t);
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const mix = [...tally.entries()]
    .map(([k, v]) => `${k} ${Math.round((100 * v) / latencies.length)}%`)
    .join(", ");
  return {
    scenario,
    requests: latencies.length,
    seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    mix,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), "palisade-sandbox-bench-"));
// CloudTrail's 2 LookupEvents/s per account and Region would measure the limit, not the sandbox.
const cloud = await startSandboxCloud({
  dataDir,
  port: 0,
  activity: { enabled: false },
  cloudTrailLookupsPerSecond: Number.MAX_SAFE_INTEGER,
});
try {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${cloud.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const aws = (service: string, target: string, input: unknown) => {
    const req = {
      method: "POST",
      path: "/",
      query: new URLSearchParams(),
      headers: {
        host: new URL(cloud.url).host,
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": target,
      } as Record<string, string>,
      body: JSON.stringify(input),
    };
    signRequest(req, cloud.aws, cloud.aws.region, service);
    return post("/", req.body, req.headers);
  };
  const organizations = (action: string, input: unknown) =>
    aws("organizations", `AWSOrganizationsV20161128.${action}`, input);
  const root = ((await organizations("ListRoots", {})).body.Roots as { Id: string }[])[0]!.Id;
  const guardrail = (sid: string, action: string, condition: unknown) =>
    JSON.stringify({
      Version: "2012-10-17",
      Statement: [{ Sid: sid, Effect: "Deny", Action: action, Resource: "*", Condition: condition }],
    });
  const guardrails = [
    guardrail("Imdsv2", "ec2:RunInstances", { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } }),
    guardrail("Regions", "*", { StringNotEquals: { "aws:RequestedRegion": ["us-east-1", "eu-west-1"] } }),
    guardrail("PublicAcl", "s3:PutBucketAcl", {
      StringEquals: { "s3:x-amz-acl": ["public-read", "public-read-write"] },
    }),
  ];
  const policyIds: string[] = [];
  for (const [i, content] of guardrails.entries()) {
    const created = await organizations("CreatePolicy", {
      Name: `bench-${i}`,
      Description: "",
      Type: "SERVICE_CONTROL_POLICY",
      Content: content,
    });
    const id = (created.body.Policy as { PolicySummary: { Id: string } }).PolicySummary.Id;
    await organizations("AttachPolicy", { PolicyId: id, TargetId: root });
    policyIds.push(id);
  }

  const rows: Row[] = [];
  rows.push(
    await measure("/sandbox/try AWS (3 SCPs + FullAWSAccess, root/OU/account)", async (i) => {
      const out = await post("/sandbox/try", {
        provider: "aws",
        account: "payments-dev",
        principal: "user/alice",
        action: "ec2:RunInstances",
        resource: "*",
        context: { "ec2:MetadataHttpTokens": i % 4 === 0 ? "optional" : "required" },
      });
      return out.status === 200 ? "allowed" : out.status === 403 ? "denied" : `http ${out.status}`;
    }),
  );
  // A waiver is an SCP update; the next call must already see it (budget: < 2 s end to end).
  rows.push(
    await measure(
      "UpdatePolicy (waiver on/off) then /sandbox/try, per cycle",
      async (i) => {
        const waived = i % 2 === 0;
        const condition = waived
          ? {
              StringNotEquals: { "ec2:MetadataHttpTokens": "required" },
              StringNotLike: { "aws:PrincipalArn": "*:user/alice" },
            }
          : { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } };
        await organizations("UpdatePolicy", {
          PolicyId: policyIds[0],
          Content: guardrail("Imdsv2", "ec2:RunInstances", condition),
        });
        const out = await post("/sandbox/try", {
          provider: "aws",
          account: "payments-dev",
          principal: "user/alice",
          action: "ec2:RunInstances",
          resource: "*",
          context: { "ec2:MetadataHttpTokens": "optional" },
        });
        return (out.status === 200) === waived ? "enforced on next call" : "stale decision";
      },
      1,
    ),
  );
  const agent = new Agent({ ca: cloud.azure.caCertPem, keepAlive: true });
  const https = (method: string, path: string, body: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${cloud.azure.armEndpoint}${path}`, { method, agent, headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const token = await https(
    "POST",
    `/${cloud.azure.tenantId}/oauth2/v2.0/token`,
    new URLSearchParams({
      grant_type: "client_credentials",
      client_id: cloud.azure.clientId,
      client_secret: cloud.azure.clientSecret,
      scope: "https://management.azure.com/.default",
    }).toString(),
    { "content-type": "application/x-www-form-urlencoded" },
  );
  const arm = (path: string, body: unknown) =>
    https("PUT", `${path}?api-version=2023-04-01`, JSON.stringify(body), {
      authorization: `Bearer ${token.body.access_token}`,
      "content-type": "application/json",
    });
  const rootGroup = `/providers/Microsoft.Management/managementGroups/${cloud.azure.rootManagementGroupId}`;
  const definition = await arm(
    `${rootGroup}/providers/Microsoft.Authorization/policyDefinitions/bench-https`,
    {
      properties: {
        mode: "Indexed",
        policyRule: {
          if: {
            allOf: [
              { field: "type", equals: "Microsoft.Storage/storageAccounts" },
              { field: "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly", notEquals: true },
            ],
          },
          then: { effect: "Deny" },
        },
      },
    },
  );
  await arm(`${rootGroup}/providers/Microsoft.Authorization/policyAssignments/bench-https`, {
    properties: {
      policyDefinitionId: definition.body.id,
      nonComplianceMessages: [{ message: "HTTPS only" }],
    },
  });
  const subscription = await https("GET", "/subscriptions?api-version=2022-12-01", "", {
    authorization: `Bearer ${token.body.access_token}`,
  });
  const subs = subscription.body.value as { subscriptionId: string; displayName: string }[];
  rows.push(
    await measure("/sandbox/try Azure (HTTPS-only assignment at tenant root)", async (i) => {
      const sub = subs[i % subs.length]!;
      const out = await post("/sandbox/try", {
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `/subscriptions/${sub.subscriptionId}/resourceGroups/rg-${sub.displayName}-data/providers/Microsoft.Storage/storageAccounts/stbench${i % 500}`,
        context: { "properties.supportsHttpsTrafficOnly": i % 4 !== 0 },
      });
      return out.status === 200 ? "allowed" : out.status === 403 ? "denied" : `http ${out.status}`;
    }),
  );
  agent.destroy();
  rows.push(
    await measure("CloudTrail LookupEvents, 50 per page", async () => {
      const out = await aws(
        "cloudtrail",
        "com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101.LookupEvents",
        {
          MaxResults: 50,
        },
      );
      return out.status === 200 ? `page of ${(out.body.Events as unknown[]).length}` : `http ${out.status}`;
    }),
  );

  console.log(
    `Sandbox cloud on loopback, ${CONCURRENCY} concurrent clients (the waiver cycle runs alone), ${RUN_MS} ms per scenario\n`,
  );
  console.log("| scenario | requests | req/s | p50 ms | p99 ms | outcomes |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const r of rows) {
    console.log(
      `| ${r.scenario} | ${r.requests} | ${Math.round(r.requests / r.seconds)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.mix} |`,
    );
  }
} finally {
  await cloud.close();
  rmSync(dataDir, { recursive: true, force: true });
}
