import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { tryAction } from "../enforce/try-action";
import { createRandom } from "../state/random";
import { openStateStore, type StateStore } from "../state/store";
import { nextScenario, startActivity } from "./generator";

const dirs: string[] = [];
const stores: StateStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.flush();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function store() {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-activity-"));
  dirs.push(dir);
  const s = await openStateStore(dir, 11);
  stores.push(s);
  return s;
}

it("generates actions the try path accepts, from humans and applications, some breaking common guardrails", async () => {
  const s = await store();
  const rnd = createRandom(5);
  const seen = {
    aws: 0,
    azure: 0,
    rejected: [] as unknown[],
    imdsOptional: 0,
    publicAcl: 0,
    insecureStorage: 0,
  };
  for (let i = 0; i < 300; i++) {
    const input = nextScenario(s, rnd);
    const out = await tryAction(s, input);
    if (out.httpStatus === 400) seen.rejected.push({ input, out: out.body });
    seen[input.provider as "aws" | "azure"]++;
    const context = (input.context ?? {}) as Record<string, unknown>;
    if (context["ec2:MetadataHttpTokens"] === "optional") seen.imdsOptional++;
    if (context["s3:x-amz-acl"] === "public-read") seen.publicAcl++;
    if (context["properties.supportsHttpsTrafficOnly"] === false) seen.insecureStorage++;
  }
  expect(seen.rejected).toEqual([]);
  expect(seen.aws).toBeGreaterThan(50);
  expect(seen.azure).toBeGreaterThan(50);
  expect(seen.imdsOptional).toBeGreaterThan(0);
  expect(seen.publicAcl).toBeGreaterThan(0);
  expect(seen.insecureStorage).toBeGreaterThan(0);
  const humans = s.state.aws.trail.filter((t) =>
    /:user\/(alice|bob|carol|dave)$|:assumed-role\/(Admin|Developer|ReadOnly)\//.test(
      String(t.userIdentity.arn),
    ),
  );
  const apps = s.state.aws.trail.filter((t) =>
    /:assumed-role\/(ci-deployer|data-pipeline)\//.test(String(t.userIdentity.arn)),
  );
  expect(humans.length).toBeGreaterThan(0);
  expect(apps.length).toBeGreaterThan(0);
});

it("runs at the configured rate until stopped", async () => {
  const s = await store();
  const activity = startActivity(s, { actionsPerMinute: 1200, seed: 3 });
  await new Promise((r) => setTimeout(r, 600));
  activity.stop();
  const count = s.state.aws.trail.length + s.state.azure.activityLog.length;
  expect(count).toBeGreaterThanOrEqual(5);
  await new Promise((r) => setTimeout(r, 200));
  expect(s.state.aws.trail.length + s.state.azure.activityLog.length).toBeLessThanOrEqual(count + 2);
});
