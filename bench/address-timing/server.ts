import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { eq } from "drizzle-orm";
import { user } from "../../apps/server/src/auth/auth-schema";
import { bundles } from "../../apps/server/src/modules/deployment/deployment-schema";
import { startSmtpTestServer } from "../../apps/server/test/support/smtp-test-server";
import { startTestServer } from "../../apps/server/test/support/test-server";
import { DOMAIN, ORIGIN, POLICY_KEY } from "./shared";

/**
 * The server the address-timing benchmark calls, in a process of its own so that its work after
 * an answer does not delay the benchmark reading that answer: Palisade with the embedded
 * database, an SMTP server on loopback, a tenant with a waiver requester domain and `ACCOUNTS`
 * accounts in it, each with a confirmed phone number, open sign-up, and an administrator of another
 * tenant who invites. Prints its address, then runs until killed.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 55);

const smtp = await startSmtpTestServer();
const server = await startTestServer("pglite", {
  SMTP_URL: smtp.url,
  TRUST_PROXY: "true",
  ALLOW_SIGN_UP: "true",
  LOG_LEVEL: "error",
  PUBLIC_URL: ORIGIN,
});
const db = server.palisade.database.db;

const admin = await server.addMember({ role: "ADMINISTRATOR" });
await server.client(TenantService, admin.credentials).updateSettings({
  settings: {
    maxWaiverDurationHours: 72,
    defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
    waiverRequesterDomains: [DOMAIN],
  },
});
await db.insert(bundles).values({
  tenantId: server.defaultTenantId,
  key: POLICY_KEY,
  name: "Bench bundle",
  policySlug: "aws-s3-deny-public-access-change",
  provider: "AWS",
  mode: "PREVENT",
  status: "DEPLOYED",
  scopes: [{ id: "111122223333" }],
  waiverApprovalMode: "AUTO",
  createdBy: "bench",
});

const known: { email: string; password: string }[] = [];
for (let i = 0; i < ACCOUNTS; i += 1) {
  const member = await server.addMember({ role: "VIEWER", email: `known-${i}@${DOMAIN}` });
  await db
    .update(user)
    .set({ phoneNumber: `+1555${String(i).padStart(7, "0")}`, phoneNumberVerified: true })
    .where(eq(user.id, member.userId));
  known.push({ email: member.email, password: member.password });
}

// An administrator of another tenant, who invites both kinds of address.
const inviter = await server.addMember({
  role: "ADMINISTRATOR",
  tenantId: await server.createTenant("Invites"),
});
const inviterToken = inviter.credentials.kind === "bearer" ? inviter.credentials.token : "";

console.log(JSON.stringify({ url: server.url, known, inviterToken }));
process.on("SIGTERM", async () => {
  await server.stop();
  await smtp.stop();
  process.exit(0);
});
