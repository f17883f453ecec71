import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createPalisade, type Palisade } from "../src/boot/app";
import { readConfig } from "../src/boot/config";
import { createLogger } from "../src/logger";
import { organization } from "../src/modules/tenant/organization-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import {
  advanceSandboxClock,
  deploymentRows,
  node,
  scpsNamed,
  throttleSandbox,
  tryAction,
  waitForBundleStatus,
  waitForHierarchy,
} from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { createTestDatabase, engines, type TestDatabase } from "./support/test-database";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./support/test-server";

const S3_SLUG = "protect-s3-account-public-access-block";

/** Palisade on an existing database and data folder, as after a restart; the sandbox comes back from its state file. */
async function startOn(database: TestDatabase) {
  const config = readConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    PALISADE_ADMIN_EMAIL: ADMIN_EMAIL,
    PALISADE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    WEB_DIST: "/nonexistent",
    LOG_LEVEL: "error",
    PALISADE_SANDBOX: "true",
    SANDBOX_ACTIVITY: "false",
  });
  const palisade: Palisade = await createPalisade(config, createLogger(config.logLevel));
  await palisade.app.listen({ port: 0, host: "127.0.0.1" });
  const address = palisade.app.server.address();
  if (!address || typeof address === "string") throw new Error("server has no port");
  const signIn = await palisade.auth.api.signInEmail({
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  const transport = createConnectTransport({
    baseUrl: `http://127.0.0.1:${address.port}`,
    httpVersion: "1.1",
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${signIn.token}`);
        return next(req);
      },
    ],
  });
  const [tenant] = await palisade.database.db
    .select()
    .from(organization)
    .where(eq(organization.slug, "default"));
  const sandbox = palisade.cloud.sandbox;
  if (!tenant || !sandbox) throw new Error("no default tenant or sandbox");
  return {
    palisade,
    sandbox,
    tenantId: tenant.id,
    db: palisade.database.db,
    manager: createClient(DeploymentManagerService, transport),
    waivers: createClient(WaiverService, transport),
  };
}

describe.each(engines)("the deployment loop on %s", (engine) => {
  let database: TestDatabase | undefined;
  let running: Awaited<ReturnType<typeof startOn>> | undefined;

  afterAll(async () => {
    await running?.palisade.close();
    await database?.drop();
  });

  it("finishes a deploy interrupted by a restart with exactly one SCP, then waives and un-waives in the cloud", async () => {
    database = await createTestDatabase(engine);
    const first = await startOn(database);
    running = first;
    await waitForHierarchy(first.db, first.tenantId);
    const ou = await node(first.db, first.tenantId, "Workloads");

    // The organisation keeps throttling: the deploy job is still working on it when the server stops.
    await throttleSandbox(first.sandbox, "organizations", 10_000);
    const { bundle } = await first.manager.createBundle({
      name: "Keep S3 public access blocked",
      policySlug: S3_SLUG,
      scopes: [{ externalId: ou.externalId, connectorId: ou.connectorId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
    });
    const id = bundle?.entity?.id ?? "";
    const key = bundle?.key ?? "";
    await waitFor("the deploy job to start", async () => {
      const [row] = await deploymentRows(first.db, id);
      return row?.status === "EVALUATING";
    });
    await first.palisade.close();
    running = undefined;

    const second = await startOn(database);
    running = second;
    const deployed = await waitForBundleStatus(second.db, id, ["DEPLOYED", "FAILED"], 60_000);
    expect(deployed.status).toBe("DEPLOYED");
    // The OU's guardrails share one packed SCP, its statements keyed by the bundle's key.
    const scps = await scpsNamed(second.sandbox, `palisade-${ou.externalId}-0`);
    expect(scps).toHaveLength(1);
    const [deployment] = await deploymentRows(second.db, id);
    expect(deployment?.nativeId).toBe(scps[0]?.id);

    const tryS3 = () =>
      tryAction(second.sandbox, {
        provider: "aws",
        account: "payments-prod",
        principal: "user/alice",
        action: "s3:PutAccountPublicAccessBlock",
        resource: "*",
      });
    const denied = await tryS3();
    expect(denied.status).toBe(403);
    expect(denied.body.error?.Message).toContain(scps[0]?.id);

    // A waiver for the account, approved automatically, reaches the SCP; the same try then passes.
    const account = await node(second.db, second.tenantId, "payments-prod");
    const { waiver } = await second.waivers.create({
      key: key.toLowerCase(),
      duration: BigInt(3600),
      comment: "Rotating the account baseline",
      target: { case: "scopeExternalId", value: account.externalId },
    });
    expect(waiver?.policyKey).toBe(key);
    await waitFor("the waiver to reach the cloud", async () => {
      const [row] = await second.db
        .select()
        .from(waivers)
        .where(eq(waivers.id, waiver?.entity?.id ?? ""));
      return row?.deploymentStatus === "ACTIVE";
    });
    const { items } = await second.waivers.list({ filter: { key } });
    expect(items.map((w) => w.status)).toEqual([WaiverStatus.ACTIVE]);
    expect((await tryS3()).status).toBe(200);

    // Past its expiry (on the hour after the hour asked for) the cloud denies again, even before
    // Palisade marks it expired.
    await advanceSandboxClock(second.sandbox, 2 * 3600 + 60);
    expect((await tryS3()).status).toBe(403);
  }, 120_000);
});
