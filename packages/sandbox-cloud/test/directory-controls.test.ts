import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { ClientSecretCredential } from "@azure/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const ARM = "https://management.azure.com/.default";

const credential = (secret: string) =>
  new ClientSecretCredential(h.cloud.azure.tenantId, h.cloud.azure.clientId, secret, {
    authorityHost: h.cloud.azure.authorityHost,
    disableInstanceDiscovery: true,
    agent: h.agent,
  });

describe("changes made to the tenant outside ARM's policy APIs", () => {
  it("an expired client secret is refused with AADSTS7000222 (https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes) until a new one is used", async () => {
    const old = h.cloud.azure.clientSecret;
    expect((await h.post("/sandbox/control/client-secret", { expire: true })).status).toBe(200);
    await expect(credential(old).getToken(ARM)).rejects.toThrow(
      /AADSTS7000222: The provided client secret keys for app '.+' are expired/,
    );
    expect((await h.post("/sandbox/control/client-secret", { renew: true })).status).toBe(200);
    expect(h.cloud.azure.clientSecret).not.toBe(old);
    await expect(credential(old).getToken(ARM)).rejects.toThrow(/AADSTS7000215/);
    expect((await credential(h.cloud.azure.clientSecret).getToken(ARM)).token).toBeTruthy();
    expect((await h.post("/sandbox/control/client-secret", {})).status).toBe(400);
  });

  it("a management group with children is deleted only once they moved (https://learn.microsoft.com/en-us/rest/api/managementgroups/management-groups/delete)", async () => {
    const refused = await h.post("/sandbox/control/management-group", { delete: "sandboxes" });
    expect(refused.status).toBe(400);
    expect((refused.body.error as { code: string }).code).toBe("ManagementGroupHasChildren");

    const deleted = await h.post("/sandbox/control/management-group", {
      delete: "sandboxes",
      moveChildrenTo: "landing-zones",
    });
    expect(deleted.status).toBe(200);
    const mg = new ManagementGroupsAPI(credential(h.cloud.azure.clientSecret), h.armOptions);
    await expect(mg.managementGroups.get("sandboxes")).rejects.toMatchObject({
      code: "ManagementGroupNotFound",
    });
    const below: string[] = [];
    for await (const d of mg.managementGroups.listDescendants("landing-zones")) below.push(d.displayName!);
    expect(below).toContain("sandbox-01");
    expect((await h.post("/sandbox/control/management-group", { delete: "sandboxes" })).status).toBe(404);
  });
});
