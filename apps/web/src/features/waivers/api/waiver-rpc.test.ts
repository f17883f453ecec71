import type { DescMethodUnary } from "@bufbuild/protobuf";
import { createQueryOptions } from "@connectrpc/connect-query";
import { createConnectTransport } from "@connectrpc/connect-web";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { partialMatchKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectQueryKey, createWaiver } from "./waiver-rpc";

describe("createWaiver", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends the form's idempotency key with the request", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({ waiver: { policyKey: "ABCDEFG" } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await createWaiver({ key: "ABCDEFG", durationSeconds: 7_200n, comment: "why", idempotencyKey: "k-1" });
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
});

describe("connectQueryKey", () => {
  const transport = createConnectTransport({ baseUrl: "/" });
  const keyOf = (method: DescMethodUnary, input: object) =>
    createQueryOptions(method, input as never, { transport }).queryKey;
  const signedInQueries = {
    "WaiverService/List": keyOf(WaiverService.method.list, { filter: { key: "ABCDEFG" } }),
    "WaiverService/Summary": keyOf(WaiverService.method.summary, { filter: { keys: ["ABCDEFG"] } }),
    "PolicyService/GetPolicies": keyOf(PolicyService.method.getPolicies, {}),
  };

  it.each([
    ["palisade.waiver.v1.WaiverService", "List", "WaiverService/List"],
    ["palisade.waiver.v1.WaiverService", "Summary", "WaiverService/Summary"],
    ["palisade.policy.v1.PolicyService", "GetPolicies", "PolicyService/GetPolicies"],
  ] as const)("%s %s refreshes exactly the signed-in pages' %s queries", (service, method, expected) => {
    const key = connectQueryKey(service, method);
    for (const [name, queryKey] of Object.entries(signedInQueries)) {
      expect(partialMatchKey(queryKey, key), name).toBe(name === expected);
    }
  });
});
