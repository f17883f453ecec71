import { createConnectQueryKey } from "@connectrpc/connect-query";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWaiver, policyRpc } from "./waiver-rpc";

describe("createWaiver", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends the form's idempotency key with the request", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({ waiver: { policyKey: "ABCDEFG" } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await createWaiver({
      key: "ABCDEFG",
      durationSeconds: 7_200n,
      comment: "why",
      scope: "",
      idempotencyKey: "k-1",
    });
    const [input, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(input)).toBe("/palisade.waiver.v1.WaiverService/Create");
    const headers = init?.headers as Record<string, string>;
    expect(headers["Idempotency-Key"]).toBe("k-1");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({
      key: "ABCDEFG",
      duration: "7200",
      comment: "why",
      createSource: "WAIVER_CREATE_SOURCE_FORM",
    });
  });

  it("narrows the waiver to the chosen scope", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({ waiver: { policyKey: "ABCDEFG" } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await createWaiver({
      key: "ABCDEFG",
      durationSeconds: 3_600n,
      comment: "why",
      scope: "111122223333",
      idempotencyKey: "k-2",
    });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({ scopeExternalId: "111122223333" });
  });
});

describe("query keys of the JSON clients", () => {
  it("keys one query as connect-query does", () => {
    expect(policyRpc.queryKey("getBundleByKey", { key: "ABCDEFG" })).toEqual(
      createConnectQueryKey({
        schema: PolicyService.method.getBundleByKey,
        input: { key: "ABCDEFG" },
        cardinality: "finite",
      }),
    );
  });
});
