import { createServer, request } from "node:http";
import { DEFAULT_SCP_LIMITS } from "@palisade/policy-engine/compilers/aws/pack-scps";
import type { AwsCloudProvider } from "../../src/cloud/cloud-provider";
import { type ChangedGuardrail, repackScps } from "../../src/modules/deployment/scp-repack";

// One deployment's life on one AWS target, driven through Palisade's AWS adapter and its re-pack:
// the same steps run against every Organizations the tests compare.

const logger = { info: () => {} };

/** Guardrail keys (policy keys: 7 Crockford base32 characters) and their compiled content. */
export const GUARDRAILS = {
  publicAccess: { key: "AAAAAA1", slug: "deny-s3-public-access-block-changes" },
  imdsV1: { key: "AAAAAA2", slug: "require-imdsv2" },
  leaveOrg: { key: "AAAAAA3", slug: "deny-leave-organization" },
} as const;

const deny = (actions: string[], condition?: Record<string, unknown>) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "Deny",
        Effect: "Deny",
        Action: actions,
        Resource: "*",
        ...(condition ? { Condition: condition } : {}),
      },
    ],
  });

const CONTENT = {
  publicAccess: deny(["s3:PutBucketPublicAccessBlock", "s3:PutAccountPublicAccessBlock"]),
  publicAccessWaived: deny(["s3:PutBucketPublicAccessBlock", "s3:PutAccountPublicAccessBlock"], {
    ArnNotLike: { "aws:PrincipalArn": ["arn:aws:iam::*:role/Developer"] },
  }),
  imdsV1: deny(["ec2:RunInstances"], { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } }),
  leaveOrg: deny(["organizations:LeaveOrganization"]),
};

/** What a user would check on the target after each step: Palisade's SCPs there and what they hold. */
export interface TargetSnapshot {
  step: string;
  /** Palisade's SCPs attached to the target: name -> the guardrail statements' Sids. */
  scps: Record<string, string[]>;
  /** The SCPs of others on the target (FullAWSAccess). */
  others: string[];
  /** Palisade's SCPs that carry the `palisade:managed` tag. */
  tagged: number;
}

async function snapshot(
  provider: AwsCloudProvider,
  target: string,
  step: string,
  tagsOf: (policyId: string) => Promise<Record<string, string>>,
): Promise<TargetSnapshot> {
  const attached = await provider.listTargetScps(target);
  const scps: Record<string, string[]> = {};
  const others: string[] = [];
  let tagged = 0;
  for (const scp of attached) {
    if (!scp.name.startsWith("palisade-")) {
      others.push(scp.name);
      continue;
    }
    const document = JSON.parse(await provider.readScpContent(scp.id)) as { Statement: { Sid: string }[] };
    scps[scp.name] = document.Statement.map((s) => s.Sid).sort();
    if ((await tagsOf(scp.id))["palisade:managed"] === "true") tagged += 1;
  }
  return { step, scps, others: others.sort(), tagged };
}

/**
 * Deploys three guardrails to the target one after another (the second and third re-pack the
 * target's SCP; a small character quota makes the third spill into a second SCP), updates the
 * first with a waiver, then removes them one by one. Returns the target after each step.
 */
export async function runScpScenario(
  provider: AwsCloudProvider,
  target: string,
  tagsOf: (policyId: string) => Promise<Record<string, string>>,
): Promise<TargetSnapshot[]> {
  // Room for two of these guardrails in one SCP, not three.
  const limits = { ...DEFAULT_SCP_LIMITS, characters: 360 };
  const live: { key: string; slug: string }[] = [];
  const out: TargetSnapshot[] = [];
  const step = async (name: string, changed: ChangedGuardrail) => {
    const outcome = await repackScps(
      { provider, logger, target },
      { limits, live: [...live], targetName: "target" },
      changed,
    );
    if (outcome.unplaced.size > 0) throw new Error(`${name}: ${[...outcome.unplaced.values()].join("; ")}`);
    out.push(await snapshot(provider, target, name, tagsOf));
  };
  const deploy = async (which: keyof typeof GUARDRAILS, content: string, name: string) => {
    const g = GUARDRAILS[which];
    if (!live.some((l) => l.key === g.key)) live.push({ key: g.key, slug: g.slug });
    await step(name, { key: g.key, slug: g.slug, content });
  };
  const remove = async (which: keyof typeof GUARDRAILS) => {
    const g = GUARDRAILS[which];
    live.splice(
      live.findIndex((l) => l.key === g.key),
      1,
    );
    await step(`remove ${which}`, { key: g.key, slug: g.slug, content: undefined });
  };
  await deploy("publicAccess", CONTENT.publicAccess, "deploy publicAccess");
  await deploy("imdsV1", CONTENT.imdsV1, "deploy imdsV1 (re-pack)");
  await deploy("leaveOrg", CONTENT.leaveOrg, "deploy leaveOrg (second SCP)");
  await deploy("publicAccess", CONTENT.publicAccessWaived, "update publicAccess with a waiver");
  await remove("imdsV1");
  await remove("publicAccess");
  await remove("leaveOrg");
  return out;
}

/** One call as it reached Organizations: the operation, its input and the answer. */
export interface RecordedCall {
  operation: string;
  input: Record<string, unknown>;
  status: number;
  output: Record<string, unknown>;
}

/**
 * A proxy in front of an AWS JSON endpoint that records each Organizations call. Headers pass
 * unchanged (the host included), so the request's SigV4 signature still verifies upstream.
 */
export async function recordingProxy(target: string) {
  const calls: RecordedCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", target);
      const upstream = request(url, { method: req.method, headers: req.headers }, (up) => {
        const answer: Buffer[] = [];
        up.on("data", (c: Buffer) => answer.push(c));
        up.on("end", () => {
          const text = Buffer.concat(answer);
          const operation = String(req.headers["x-amz-target"] ?? "");
          if (operation.startsWith("AWSOrganizationsV20161128.")) {
            const parse = (b: Buffer) => {
              try {
                return JSON.parse(b.toString() || "{}") as Record<string, unknown>;
              } catch {
                return {};
              }
            };
            calls.push({
              operation: operation.slice(operation.indexOf(".") + 1),
              input: parse(body),
              status: up.statusCode ?? 0,
              output: parse(text),
            });
          }
          res.writeHead(up.statusCode ?? 500, up.headers);
          res.end(text);
        });
      });
      upstream.end(body);
    });
  });
  return new Promise<{ url: string; calls: RecordedCall[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls,
        close: () => new Promise((r) => server.close(() => r())),
      });
    }),
  );
}
