import { bundles } from "../../apps/server/src/modules/deployment/deployment-schema";
import type { Engine } from "../../apps/server/test/support/test-database";
import { startTestServer } from "../../apps/server/test/support/test-server";

/**
 * The server the lookup benchmark calls, in a process of its own: Palisade on `BENCH_ENGINE`
 * (pglite, or postgres on TEST_DATABASE_URL), the public limits as configured by default (each
 * benchmark client presents its own address through the proxy header), and one live bundle whose
 * key is looked up. Prints its address and the key, then runs until killed.
 */
export const LOOKUP_KEY = "BENCH7Q";

const engine = (process.env.BENCH_ENGINE ?? "pglite") as Engine;
const server = await startTestServer(engine, { TRUST_PROXY: "true", LOG_LEVEL: "error" });
await server.palisade.database.db.insert(bundles).values({
  tenantId: server.defaultTenantId,
  key: LOOKUP_KEY,
  name: "Bench bundle",
  policySlug: "aws-s3-deny-public-access-change",
  provider: "AWS",
  mode: "PREVENT",
  status: "DEPLOYED",
  scopes: [{ id: "111122223333" }],
  waiverApprovalMode: "AUTO",
  createdBy: "bench",
});

console.log(JSON.stringify({ url: server.url, key: LOOKUP_KEY, pid: process.pid }));
process.once("SIGTERM", async () => {
  await server.stop();
  process.exit(0);
});
