import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateAccountCommand,
  CreateOrganizationalUnitCommand,
  CreateOrganizationCommand,
  EnablePolicyTypeCommand,
  ListRootsCommand,
  MoveAccountCommand,
  OrganizationsClient,
} from "@aws-sdk/client-organizations";
import type { AwsRcpDefinition } from "@palisade/policy-engine/catalogue/definition-schema";
import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileRcp } from "@palisade/policy-engine/compilers/aws/compile-rcp";
import { DEFAULT_RCP_LIMITS } from "@palisade/policy-engine/compilers/aws/pack-scps";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import type { AwsCloudProvider } from "../src/cloud/cloud-provider";
import { sandboxAwsConnection } from "../src/cloud/sandbox-endpoints";
import { type ChangedGuardrail, repackScps } from "../src/modules/deployment/scp-repack";
import { type MotoServer, motoAvailable, startMotoServer } from "./support/moto-server";
import { sandboxOrganizations } from "./support/sandbox-aws-clients";

// Palisade's AWS adapter writes resource control policies
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html) to
// moto's Organizations (https://docs.getmoto.org/en/latest/docs/services/organizations.html) and to
// the sandbox: the same deploys, re-packs and removals must leave the same RCPs on the target, named
// apart from SCP packs, with the AWS-managed RCPFullAWSAccess left in place.

const RCP = "RESOURCE_CONTROL_POLICY" as const;
const fast = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 };
const MOTO_ACCOUNT = "123456789012";
const MOTO_KEYS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "moto-secret" };
const logger = { info: () => {} };

const catalogue = parseCatalogue(readCatalogueFiles());
const rcpContent = (slug: string, key: string) =>
  compileRcp({
    definition: catalogue.bySlug.get(slug) as AwsRcpDefinition,
    definitions: catalogue.bySlug,
    parameters: {},
    mode: "PREVENT",
    key,
    name: slug,
    scopes: [{ id: "r-ab12" }],
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "https://palisade.example.com",
    now: new Date(),
  }).content;

const GUARDRAILS = [
  { key: "AAAAAB1", slug: "rcp-require-tls-s3" },
  { key: "AAAAAB2", slug: "rcp-require-tls-kms" },
  { key: "AAAAAB3", slug: "rcp-s3-organization-principals-only" },
];

interface Snapshot {
  step: string;
  /** Palisade's RCPs on the target: name -> Sids, and whether every statement names Principal "*". */
  rcps: Record<string, { sids: string[]; principalStar: boolean }>;
  others: string[];
  /** SCPs on the target named like Palisade's packs: none, RCP packs are their own. */
  palisadeScps: string[];
}

async function snapshot(provider: AwsCloudProvider, target: string, step: string): Promise<Snapshot> {
  const rcps: Snapshot["rcps"] = {};
  const others: string[] = [];
  for (const policy of await provider.listTargetScps(target, RCP)) {
    if (!policy.name.startsWith("palisade-")) {
      others.push(policy.name);
      continue;
    }
    const document = JSON.parse(await provider.readScpContent(policy.id)) as {
      Statement: { Sid: string; Principal?: string }[];
    };
    rcps[policy.name.replaceAll(target, "<target>")] = {
      sids: document.Statement.map((s) => s.Sid).sort(),
      principalStar: document.Statement.every((s) => s.Principal === "*"),
    };
  }
  const palisadeScps = (await provider.listTargetScps(target))
    .map((p) => p.name)
    .filter((n) => n.startsWith("palisade-"));
  return { step, rcps, others: others.sort(), palisadeScps };
}

async function scenario(provider: AwsCloudProvider, target: string): Promise<Snapshot[]> {
  // Room for two of these guardrails in one RCP, not three: the third spills into a second RCP.
  const limits = { ...DEFAULT_RCP_LIMITS, characters: 400 };
  const live: { key: string; slug: string }[] = [];
  const out: Snapshot[] = [];
  const step = async (name: string, changed: ChangedGuardrail) => {
    const outcome = await repackScps(
      { provider, logger, target },
      { limits, live: [...live], targetName: "t" },
      {
        ...changed,
        policyType: RCP,
      },
    );
    if (outcome.unplaced.size > 0) throw new Error(`${name}: ${[...outcome.unplaced.values()].join("; ")}`);
    out.push(await snapshot(provider, target, name));
  };
  for (const g of GUARDRAILS) {
    live.push(g);
    await step(`deploy ${g.slug}`, { ...g, content: rcpContent(g.slug, g.key) });
  }
  for (const g of GUARDRAILS) {
    live.splice(live.indexOf(g), 1);
    await step(`remove ${g.slug}`, { ...g, content: undefined });
  }
  return out;
}

describe.skipIf(!motoAvailable())("Palisade's RCP packs on moto's Organizations and on the sandbox", () => {
  let moto: MotoServer;
  let dataDir: string;
  let cloud: SandboxCloud;
  const backends: Record<"moto" | "sandbox", { provider: AwsCloudProvider; target: string }> = {} as never;

  beforeAll(async () => {
    moto = await startMotoServer();
    const raw = new OrganizationsClient({ endpoint: moto.url, region: "us-east-1", credentials: MOTO_KEYS });
    await raw.send(new CreateOrganizationCommand({ FeatureSet: "ALL" }));
    const rootId = (await raw.send(new ListRootsCommand({}))).Roots?.[0]?.Id ?? "";
    const ou = await raw.send(new CreateOrganizationalUnitCommand({ ParentId: rootId, Name: "Sandbox" }));
    const account = (
      await raw.send(new CreateAccountCommand({ AccountName: "sandbox-alice", Email: "alice@example.com" }))
    ).CreateAccountStatus?.AccountId;
    await raw.send(
      new MoveAccountCommand({
        AccountId: account,
        SourceParentId: rootId,
        DestinationParentId: ou.OrganizationalUnit?.Id ?? "",
      }),
    );
    await raw.send(new EnablePolicyTypeCommand({ RootId: rootId, PolicyType: RCP }));
    raw.destroy();
    backends.moto = {
      target: ou.OrganizationalUnit?.Id ?? "",
      provider: createAwsProvider({
        endpoint: moto.url,
        region: "us-east-1",
        managementAccountId: MOTO_ACCOUNT,
        roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/PalisadeConnector`,
        externalId: "palisade-moto",
        baseCredentials: MOTO_KEYS,
        consoleLinks: false,
        retry: fast,
      }),
    };

    dataDir = mkdtempSync(join(tmpdir(), "palisade-rcp-packs-"));
    cloud = await startSandboxCloud({ dataDir, port: 0, activity: { enabled: false } });
    const sandbox = sandboxOrganizations(cloud);
    const sandboxRoot = (await sandbox.send(new ListRootsCommand({}))).Roots?.[0]?.Id ?? "";
    await sandbox.send(new EnablePolicyTypeCommand({ RootId: sandboxRoot, PolicyType: RCP }));
    sandbox.destroy();
    const provider = createAwsProvider({ ...sandboxAwsConnection(cloud), retry: fast });
    const entries = await provider.listHierarchy();
    backends.sandbox = {
      provider,
      target: entries.find((e) => e.type === "AWS_OU" && e.name === "Sandbox")?.externalId ?? "",
    };
  }, 60_000);

  afterAll(async () => {
    for (const b of Object.values(backends)) b.provider.close();
    await cloud?.close();
    await moto?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates, attaches, packs and removes RCPs alike on both, leaving RCPFullAWSAccess", async () => {
    const fromMoto = await scenario(backends.moto.provider, backends.moto.target);
    const fromSandbox = await scenario(backends.sandbox.provider, backends.sandbox.target);
    expect(fromSandbox).toEqual(fromMoto);
    const names = fromSandbox.map((s) => ({ step: s.step, rcps: Object.keys(s.rcps).sort() }));
    expect(names).toEqual([
      { step: "deploy rcp-require-tls-s3", rcps: ["palisade-rcp-<target>-0"] },
      { step: "deploy rcp-require-tls-kms", rcps: ["palisade-rcp-<target>-0"] },
      {
        step: "deploy rcp-s3-organization-principals-only",
        rcps: ["palisade-rcp-<target>-0", "palisade-rcp-<target>-1"],
      },
      { step: "remove rcp-require-tls-s3", rcps: expect.any(Array) },
      { step: "remove rcp-require-tls-kms", rcps: expect.any(Array) },
      { step: "remove rcp-s3-organization-principals-only", rcps: [] },
    ]);
    const third = fromSandbox[2]!;
    expect(
      Object.values(third.rcps)
        .flatMap((r) => r.sids)
        .sort(),
    ).toEqual(["PAAAAAB10", "PAAAAAB20", "PAAAAAB30"]);
    for (const s of fromSandbox) {
      expect(s.others).toEqual(["RCPFullAWSAccess"]);
      expect(s.palisadeScps).toEqual([]);
      for (const rcp of Object.values(s.rcps)) expect(rcp.principalStar).toBe(true);
    }
    // Removing the last guardrail deletes Palisade's RCPs, not only their attachments.
    for (const b of Object.values(backends)) {
      for (const slot of [0, 1])
        expect(await b.provider.findScpByName(`palisade-rcp-${b.target}-${slot}`, RCP)).toBeUndefined();
      // Found while they existed: the lookup is by type, and SCPs of that name are not RCPs.
      expect(await b.provider.findScpByName("RCPFullAWSAccess", RCP)).toBeDefined();
      expect(await b.provider.findScpByName("RCPFullAWSAccess")).toBeUndefined();
    }
  }, 120_000);
});
