import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AttachPolicyCommand, CreatePolicyCommand, ListRootsCommand } from "@aws-sdk/client-organizations";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(tsx, [cli, ...args], (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const org = await h.connectorOrganizations();
  const { Roots } = await org.send(new ListRootsCommand({}));
  const p = await org.send(
    new CreatePolicyCommand({
      Name: "pal-deny-stop-logging",
      Description: "",
      Type: "SERVICE_CONTROL_POLICY",
      Content: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Deny", Action: "cloudtrail:StopLogging", Resource: "*" }],
      }),
    }),
  );
  await org.send(
    new AttachPolicyCommand({ PolicyId: p.Policy!.PolicySummary!.Id!, TargetId: Roots![0]!.Id! }),
  );
});
afterAll(() => h.stop());

it("prints the provider's answer and exits 0 when allowed, 3 when denied, 2 on a bad request", async () => {
  const base = [
    "try",
    "--url",
    h.cloud.url,
    "--provider",
    "aws",
    "--account",
    "storefront-prod",
    "--principal",
    "role/Developer",
  ];
  const denied = await run([...base, "--action", "cloudtrail:StopLogging", "--resource", "*"]);
  expect(denied.code).toBe(3);
  expect(JSON.parse(denied.stdout).error.Message).toContain(
    "with an explicit deny in a service control policy",
  );

  const allowed = await run([
    ...base,
    "--action",
    "cloudtrail:LookupEvents",
    "--resource",
    "*",
    "--context",
    "aws:SecureTransport=true",
  ]);
  expect(allowed.code).toBe(0);
  expect(JSON.parse(allowed.stdout).allowed).toBe(true);

  const unknown = await run([
    "try",
    "--url",
    h.cloud.url,
    "--provider",
    "aws",
    "--account",
    "nope",
    "--principal",
    "x",
    "--action",
    "s3:GetObject",
    "--resource",
    "*",
  ]);
  expect(unknown.code).toBe(2);
});
