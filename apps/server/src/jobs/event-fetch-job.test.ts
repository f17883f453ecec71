import { describe, expect, it } from "vitest";
import { type EventFetchRunner, eventFetchWorker } from "./event-fetch-job";

function fakePipeline(
  fetch: () => Promise<{ records: number; events: number; states: number; failures: string[] }>,
) {
  const calls: string[] = [];
  const finished: unknown[] = [];
  const pipeline: EventFetchRunner = {
    async fetchConnector(connectorId) {
      calls.push(`fetch ${connectorId}`);
      return fetch();
    },
    async rebuildResourceEvents(tenantId) {
      calls.push(`rebuild ${tenantId}`);
    },
    async finishRequest(tenantId, jobId, outcome) {
      finished.push({ tenantId, jobId, outcome });
    },
  };
  return { pipeline, calls, finished };
}

describe("event fetch worker", () => {
  it("rebuilds first when asked, fetches, and finishes the user's job with the outcome", async () => {
    const outcome = { records: 3, events: 2, states: 1, failures: [] };
    const { pipeline, calls, finished } = fakePipeline(async () => outcome);
    const worker = eventFetchWorker({ pipeline });
    await worker.handler({
      id: "q1",
      retryCount: 0,
      data: { connectorId: "c1", tenantId: "t1", jobId: "j1", resync: true },
    });
    expect(calls).toEqual(["rebuild t1", "fetch c1"]);
    expect(finished).toEqual([{ tenantId: "t1", jobId: "j1", outcome: { ok: true, result: outcome } }]);
  });

  it("leaves the user's job running until the last attempt has failed", async () => {
    const { pipeline, finished } = fakePipeline(async () => {
      throw new Error("throttled");
    });
    const worker = eventFetchWorker({ pipeline });
    const data = { connectorId: "c1", tenantId: "t1", jobId: "j1" };
    await expect(worker.handler({ id: "q1", retryCount: 0, data })).rejects.toThrow("throttled");
    expect(finished).toEqual([]);
    await expect(worker.handler({ id: "q1", retryCount: worker.retryLimit ?? 0, data })).rejects.toThrow(
      "throttled",
    );
    expect(finished).toEqual([{ tenantId: "t1", jobId: "j1", outcome: { ok: false, error: "throttled" } }]);
  });

  it("fails the user's job with the reasons of the reads that failed, without retrying what was stored", async () => {
    const outcome = {
      records: 4,
      events: 1,
      states: 0,
      failures: ["Policy states: Permission denied (403)."],
    };
    const { pipeline, calls, finished } = fakePipeline(async () => outcome);
    const data = { connectorId: "c1", tenantId: "t1", jobId: "j1" };
    await eventFetchWorker({ pipeline }).handler({ id: "q1", retryCount: 0, data });
    expect(calls).toEqual(["fetch c1"]);
    expect(finished).toEqual([
      {
        tenantId: "t1",
        jobId: "j1",
        outcome: { ok: false, error: "Policy states: Permission denied (403)." },
      },
    ]);
  });

  it("fetches without a job row when the schedule asked", async () => {
    const { pipeline, calls, finished } = fakePipeline(async () => ({
      records: 0,
      events: 0,
      states: 0,
      failures: [],
    }));
    await eventFetchWorker({ pipeline }).handler({ id: "q1", retryCount: 0, data: { connectorId: "c1" } });
    expect(calls).toEqual(["fetch c1"]);
    expect(finished).toEqual([]);
  });
});
