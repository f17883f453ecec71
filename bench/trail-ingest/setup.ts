import { spawn } from "node:child_process";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { createAwsProvider } from "../../apps/server/src/cloud/aws/aws-provider";
import { type DatabaseHandle, openDatabase } from "../../apps/server/src/db/database";
import { createLogger } from "../../apps/server/src/logger";
import { connectors } from "../../apps/server/src/modules/connector/connector-schema";
import { loadCatalogue } from "../../apps/server/src/modules/policy-definition/load-catalogue";
import { ORG_ID, TEST_KEYS } from "../../apps/server/test/support/trail-objects";

// What the organisation-trail benches share: an organisation whose root carries one PREVENT
// guardrail (an SCP attached), its connector reading the organisation trail, PGlite, and the
// file-backed S3 endpoint that serves the trail's files.

export const MANAGEMENT = "100000000000";
export const BUCKET = "bench-org-trail";
const TENANT = "bench-tenant";
const ROOT = "r-bench";
export const SCP_ID = "p-benchscp01";
const SLUG = "protect-s3-account-public-access-block";

export const TRAIL = {
  bucket: BUCKET,
  keyPrefix: "",
  bucketRegion: "us-east-1",
  readerRoleArn: "arn:aws:iam::300000000000:role/palisade-trail-reader",
  readerExternalId: "",
  backfillDays: 7,
};

/** Member account ids: 200000000000, 200000000001, ... */
export const memberAccounts = (n: number) => Array.from({ length: n }, (_, i) => String(200000000000 + i));

/** The message of an SCP denial of `s3:PutAccountPublicAccessBlock`, naming the bench's SCP. */
export const denialMessage = (account: string) =>
  `User: arn:aws:sts::${account}:assumed-role/Deployer/deploy-session is not authorized to perform: s3:PutAccountPublicAccessBlock with an explicit deny in a service control policy: arn:aws:organizations::${MANAGEMENT}:policy/${ORG_ID}/service_control_policy/${SCP_ID}`;

/** PGlite in `dir`, migrated, with the organisation, its connector, hierarchy and guardrail. */
export async function openBenchOrganisation(dir: string, accounts: string[]) {
  const handle: DatabaseHandle = await openDatabase({ dataDir: dir });
  await handle.migrate();
  const { db } = handle;
  await db.execute(sql`insert into organization (id, name, slug) values (${TENANT}, 'Bench', 'bench')`);
  const [connector] = await db
    .insert(connectors)
    .values({
      tenantId: TENANT,
      name: "Bench organisation",
      kind: "aws",
      status: "CONNECTED",
      config: {
        provider: "aws",
        managementAccountId: MANAGEMENT,
        roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
        externalId: "bench",
        region: "us-east-1",
        trail: TRAIL,
      },
    })
    .returning();
  const connectorId = connector?.id ?? "";
  await db.execute(sql`
    insert into hierarchy_nodes (tenant_id, connector_id, provider, external_id, parent_external_id, name, type)
    select ${TENANT}, ${connectorId}, 'aws', id, parent, id, kind
    from (values (${ROOT}, null, 'AWS_ORGANIZATION_ROOT')) as root(id, parent, kind)
    union all
    select ${TENANT}, ${connectorId}, 'aws', a, ${ROOT}, a, 'AWS_ACCOUNT' from unnest(${sql.param(accounts)}::text[]) as a`);
  await db.execute(sql`
    insert into bundles (id, tenant_id, key, name, policy_slug, provider, mode, status, scopes, created_by)
    values ('bundle-1', ${TENANT}, 'BENCH1', 'S3 public access block', ${SLUG}, 'aws', 'PREVENT', 'DEPLOYED',
      ${JSON.stringify([{ externalId: ROOT, name: "Root" }])}::jsonb, 'bench')`);
  await db.execute(sql`
    insert into deployments (id, tenant_id, bundle_id, key, connector_id, scope, scope_external_id, mode, status, policy_slug, name, native_id, created_by)
    values ('dep-1', ${TENANT}, 'bundle-1', 'BENCH1', ${connectorId}, '{}'::jsonb, ${ROOT}, 'PREVENT', 'DEPLOYED', ${SLUG},
      'S3 public access block', ${SCP_ID}, 'bench')`);
  const deps = { db, catalogue: loadCatalogue().catalogue, logger: createLogger("silent") };
  return { handle, db, connectorId, deps };
}

/**
 * The file-backed S3 endpoint (`file-s3.ts`) in a process of its own, serving the files under
 * `objects/<bucket>/` from disk.
 */
export async function startFileS3(objects: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "file-s3.ts"), objects],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    child.once("exit", (code) => reject(new Error(`file-s3 exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    name: "file-backed S3",
    stop: async () => {
      child.kill();
    },
  };
}

/** The connector's AWS provider against the bench's S3 endpoint. */
export function benchProvider(endpoint: string) {
  return createAwsProvider({
    endpoint,
    region: "us-east-1",
    roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
    externalId: "bench",
    managementAccountId: MANAGEMENT,
    consoleLinks: false,
    baseCredentials: TEST_KEYS,
    trail: TRAIL,
  });
}
