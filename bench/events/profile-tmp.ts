import { tmpdir } from "node:os";
import pg from "pg";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../apps/server/src/db/database";
import { insertNewEvents, touchResourceEvents } from "../../apps/server/src/modules/event/event-write-repository";
const ADMIN = "postgres://postgres:postgres@127.0.0.1:5432/postgres";
const c = new pg.Client(ADMIN); await c.connect();
await c.query("drop database if exists palisade_prof with (force)"); await c.query("create database palisade_prof"); await c.end();
const h = await openDatabase({ databaseUrl: ADMIN.replace(/postgres$/, "palisade_prof"), dataDir: tmpdir() });
await h.migrate();
await h.db.execute(sql`insert into organization (id, name, slug) values ('t', 'B', 'b')`);
const ev = (i: number, p: string) => ({ tenantId: "t", providerEventId: `${p}-${i}`, type: "PREVENTION", cloudProvider: "AWS", deploymentId: `dep-${i%20}`, bundleId: `bundle-${i%20}`, deploymentName: `Bundle ${i%20}`, resourceExternalId: `arn:aws:s3:::bucket-${i%50000}`, resourceNativeType: "AWS::S3::Bucket", resourceScope: String(100000000000 + (i % 40)), resourceName: `bucket-${i%50000}`, userIdentifier: `arn:aws:iam::123456789012:user/user-${i % 200}`, userName: `user-${i%200}`, userType: "USER", occurredAt: new Date(Date.now() - i * 60000), audits: [{ id: `${p}-${i}`, action: "organizations:LeaveOrganization", eventTime: "", raw: {} }] });
let ti = 0, tt = 0;
for (let b = 0; b < 20; b++) {
  const events = Array.from({ length: 5000 }, (_, k) => ev(b * 5000 + k, "x")) as any;
  let t = performance.now(); const rows = await insertNewEvents(h.db, events); ti += performance.now() - t;
  t = performance.now(); await touchResourceEvents(h.db, rows); tt += performance.now() - t;
}
console.log("insert ms", ti.toFixed(0), "touch ms", tt.toFixed(0), "rate", Math.round(100000 / ((ti + tt) / 1000)));
await h.close();
