// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
let root: string;
let subscriptionId: string;
const MG = "/providers/Microsoft.Management/managementGroups";

beforeAll(async () => {
  h = await startHarness();
  root = h.cloud.azure.rootManagementGroupId;
  const subs = await h.arm("GET", "/subscriptions?api-version=2022-12-01");
  subscriptionId = (subs.body.value as { subscriptionId: string }[])[0]!.subscriptionId;
});
afterAll(() => h.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** One ARM request to an absolute URL (a next link) or a path, with the answer's headers. */
async function send(method: string, target: string): Promise<Answer> {
  const token = await h.azureCredential.getToken("https://management.azure.com/.default");
  const url = target.startsWith("https://") ? target : `${h.cloud.azure.armEndpoint}${target}`;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent: h.agent, headers: { authorization: `Bearer ${token.token}` } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Follows every next link as a client must; answers the items and the pages. */
async function readAll(
  method: "GET" | "POST",
  path: string,
  nextLinkName = "nextLink",
): Promise<{ items: Record<string, unknown>[]; pages: number }> {
  const items: Record<string, unknown>[] = [];
  let target: string | undefined = path;
  let pages = 0;
  while (target) {
    const answer = await send(method, target);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    items.push(...(answer.body.value as Record<string, unknown>[]));
    pages += 1;
    target = answer.body[nextLinkName] as string | undefined;
  }
  return { items, pages };
}

async function pageSize(size: number | null) {
  expect((await h.post("/sandbox/control/limits", { listPageSize: size })).status).toBe(200);
}

describe("ARM lists page with nextLink (https://learn.microsoft.com/en-us/rest/api/managementgroups/management-groups/get-descendants)", () => {
  it("pages management-group descendants, subscriptions, resource groups and policy objects, every item once", async () => {
    const whole = await readAll("GET", `${MG}/${root}/descendants?api-version=2021-04-01`);
    expect(whole.pages).toBe(1);
    await pageSize(2);
    try {
      for (const path of [
        `${MG}/${root}/descendants?api-version=2021-04-01`,
        "/subscriptions?api-version=2022-12-01",
        `/subscriptions/${subscriptionId}/resourcegroups?api-version=2021-04-01`,
      ]) {
        await pageSize(null);
        const all = await readAll("GET", path);
        await pageSize(2);
        const paged = await readAll("GET", path);
        expect(paged.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
        expect(paged.pages).toBe(Math.ceil(all.items.length / 2));
        expect(new Set(paged.items.map((i) => i.id)).size).toBe(paged.items.length);
      }
      expect((await readAll("GET", `${MG}/${root}/descendants?api-version=2021-04-01`)).items).toHaveLength(
        whole.items.length,
      );

      const definitions = `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/policyDefinitions`;
      for (let i = 0; i < 5; i += 1) {
        const put = await h.arm("PUT", `${definitions}/pal-paged-${i}?api-version=2023-04-01`, {
          properties: {
            policyRule: { if: { field: "type", equals: `Contoso/${i}` }, then: { effect: "deny" } },
          },
        });
        expect(put.status).toBe(201);
      }
      const listed = await readAll("GET", `${definitions}?api-version=2023-04-01`);
      expect(listed.items.map((d) => d.name).filter((n) => String(n).startsWith("pal-paged-"))).toHaveLength(
        5,
      );
      expect(listed.pages).toBeGreaterThanOrEqual(3);
    } finally {
      await pageSize(null);
    }
  });

  it("refuses a skip token it did not issue", async () => {
    const answer = await send("GET", `/subscriptions?api-version=2022-12-01&$skiptoken=forged`);
    expect(answer.status).toBe(400);
    expect((answer.body.error as { code: string }).code).toBe("InvalidSkipToken");
  });
});

describe("policy states page with @odata.nextLink, followed with POST (https://learn.microsoft.com/en-us/rest/api/policy/policy-states/next-link)", () => {
  it("answers every state across pages, refuses GET on the next link, and bounds the query by $top", async () => {
    const scope = `/subscriptions/${subscriptionId}`;
    const assignment = await h.arm(
      "PUT",
      `${scope}/providers/Microsoft.Authorization/policyAssignments/pal-paged-audit?api-version=2023-04-01`,
      {
        properties: {
          policyDefinitionId: `${scope}/providers/Microsoft.Authorization/policyDefinitions/pal-paged-0`,
        },
      },
    );
    expect(assignment.status).toBe(201);
    // The assignment's compliance scan runs once it takes effect.
    await h.propagate();
    const query = `${MG}/${root}/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults?api-version=2019-10-01`;
    const all = await readAll("POST", query, "@odata.nextLink");
    expect(all.items.length).toBeGreaterThan(4);
    await pageSize(3);
    try {
      const paged = await readAll("POST", query, "@odata.nextLink");
      expect(paged.pages).toBe(Math.ceil(all.items.length / 3));
      expect(paged.items.map((s) => `${s.resourceId}|${s.policyAssignmentId}`)).toEqual(
        all.items.map((s) => `${s.resourceId}|${s.policyAssignmentId}`),
      );

      const first = await send("POST", query);
      expect(first.body["@odata.count"]).toBe(all.items.length);
      const next = first.body["@odata.nextLink"] as string;
      const viaGet = await send("GET", next);
      expect(viaGet.status).toBe(405);
      expect((viaGet.body.error as { code: string }).code).toBe("HttpMethodNotSupported");

      const top = await readAll("POST", `${query}&$top=4`, "@odata.nextLink");
      expect(top.items).toHaveLength(4);
      expect(top.pages).toBe(2);
    } finally {
      await pageSize(null);
    }
  });
});

describe("throttling on any page (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/request-limits-and-throttling)", () => {
  it("refuses each page once with 429 and Retry-After, then serves it", async () => {
    await pageSize(2);
    try {
      const path = `${MG}/${root}/descendants?api-version=2021-04-01`;
      const expected = await readAll("GET", path);
      const set = await h.post("/sandbox/control/throttle", {
        service: "arm",
        count: 1000,
        retryAfterSeconds: 7,
        pathContains: "/descendants",
        firstAttemptOnly: true,
      });
      expect(set.status).toBe(200);
      let target: string | undefined = path;
      const ids: unknown[] = [];
      let refused = 0;
      while (target) {
        const throttled = await send("GET", target);
        expect(throttled.status).toBe(429);
        expect(throttled.headers["retry-after"]).toBe("7");
        expect((throttled.body.error as { code: string }).code).toBe("TooManyRequests");
        refused += 1;
        const served = await send("GET", target);
        expect(served.status).toBe(200);
        ids.push(...(served.body.value as { id: string }[]).map((d) => d.id));
        target = served.body.nextLink as string | undefined;
      }
      expect(refused).toBe(expected.pages);
      expect(ids).toEqual(expected.items.map((d) => d.id));
      // Requests outside `pathContains` are served.
      expect((await send("GET", "/subscriptions?api-version=2022-12-01")).status).toBe(200);
    } finally {
      await h.post("/sandbox/control/throttle", { service: "arm", count: 0 });
      await pageSize(null);
    }
  });
});
