// @vitest-environment jsdom
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { describe, expect, it } from "vitest";
import { bundleSummaryQuery } from "@/features/dashboard/api/dashboard-queries";
import { readSignedInPageData, signedInPageDataScript } from "@/features/shell/signed-in-page-data";
import { currentTenantQuery } from "@/lib/current-tenant";
import { createQueryClient } from "@/lib/query-client";
import { firstReadsOf, seedFirstReads } from "./first-reads";

const TENANT = "palisade.tenant.v1.TenantService/GetCurrent";
const SUMMARY = "palisade.deployment.v1.DeploymentManagerService/SummaryBundle";

/** The answers as the server reads them for the dashboard: Connect's JSON. */
const answers = {
  [TENANT]: {
    tenant: { id: "t1", name: "Acme </script><script>alert(1)</script>" },
    permissions: ["PERMISSION_BUNDLES_READ"],
  },
  [SUMMARY]: { total: 3, prevent: 2, alert: 1 },
};

describe("a signed-in page's first reads, as the server renders it and the browser takes it over", () => {
  it("names the dashboard's reads by their Connect procedure, whatever the trailing slash, and no other page's", () => {
    expect(firstReadsOf("/dashboard")).toEqual([TENANT, SUMMARY]);
    expect(firstReadsOf("/dashboard/")).toEqual([TENANT, SUMMARY]);
    expect(firstReadsOf("/policies")).toBeUndefined();
    expect(`${DeploymentManagerService.typeName}/SummaryBundle`).toBe(SUMMARY);
  });

  it("puts the answers in the cache under the keys of the page's own queries", () => {
    const queryClient = createQueryClient();
    expect(seedFirstReads(queryClient, "/dashboard", answers)).toBe(true);
    expect(
      queryClient.getQueryData<{ tenant?: { name: string } }>(currentTenantQuery().queryKey)?.tenant?.name,
    ).toContain("Acme");
    expect(queryClient.getQueryData<{ total: number }>(bundleSummaryQuery().queryKey)?.total).toBe(3);
  });

  it("leaves the cache as it was when an answer is missing or unreadable", () => {
    const queryClient = createQueryClient();
    expect(seedFirstReads(queryClient, "/dashboard", { [TENANT]: answers[TENANT] })).toBe(false);
    expect(seedFirstReads(queryClient, "/dashboard", { ...answers, [SUMMARY]: { total: "many" } })).toBe(
      false,
    );
    expect(queryClient.getQueryData(currentTenantQuery().queryKey)).toBeUndefined();
  });

  it("carries the session and answers in the page, where no tenant name can end the data block", () => {
    const session = {
      user: { id: "u1", email: "ada@example.com", name: "Ada" },
      session: { id: "s1", expiresAt: "2026-12-01T00:00:00.000Z", activeOrganizationId: "t1" },
    };
    const doc = document.implementation.createHTMLDocument("page");
    doc.body.innerHTML = `<div id="root"></div>${signedInPageDataScript({ session, reads: answers })}<p id="after">after</p>`;
    expect(doc.querySelectorAll("script")).toHaveLength(1);
    expect(doc.getElementById("after")?.textContent).toBe("after");
    expect(readSignedInPageData(doc)).toEqual({ session, reads: answers });
    const without = document.implementation.createHTMLDocument("page");
    without.body.innerHTML = '<div id="root"></div>';
    expect(readSignedInPageData(without)).toBeNull();
  });
});
