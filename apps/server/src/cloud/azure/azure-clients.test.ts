import { describe, expect, it } from "vitest";
import { type AzureClients, createAzureClients, type PageSettings } from "./azure-clients";

function armError(status: number, retryAfter?: string) {
  const headers = new Map(retryAfter ? [["retry-after", retryAfter]] : []);
  return Object.assign(new Error(`ARM ${status}`), {
    name: "RestError",
    statusCode: status,
    response: { headers: { get: (n: string) => headers.get(n) } },
  });
}

function clients(waits: number[], maxAttempts = 4): AzureClients {
  return createAzureClients({
    tenantId: "00000000-0000-0000-0000-000000000001",
    clientId: "00000000-0000-0000-0000-000000000002",
    credential: { kind: "secret", clientSecret: "unused" },
    retry: {
      maxAttempts,
      baseDelayMs: 10,
      maxDelayMs: 60_000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
}

/** Each page answers its error the first time it is asked, and its rows after that. */
function once(errors: [number, unknown][]): (page: number) => unknown {
  const left = new Map(errors);
  return (page) => {
    const error = left.get(page);
    left.delete(page);
    return error;
  };
}

/**
 * A list of `pageCount` pages of 3 rows, as an SDK's `byPage` answers it: each page carries the
 * token of the next; `fail` says which error a page answers when it is asked.
 */
function pagedList(pageCount: number, fail: (page: number) => unknown, withTokens = true) {
  const asked: string[] = [];
  const list = (settings: PageSettings) =>
    (async function* () {
      let page = settings.continuationToken ? Number(settings.continuationToken.slice(5)) : 0;
      while (page < pageCount) {
        asked.push(`page ${page}`);
        const failure = fail(page);
        if (failure) throw failure;
        const rows = [0, 1, 2].map((i) => `row ${page * 3 + i}`);
        page += 1;
        yield Object.assign(
          rows,
          withTokens && page < pageCount ? { continuationToken: `page-${page}` } : {},
        );
      }
    })();
  return { list, asked };
}

describe("collect", () => {
  it("asks a throttled, failed or dropped page again from the last page's token, after its Retry-After, and loses no row", async () => {
    const waits: number[] = [];
    const { list, asked } = pagedList(
      4,
      once([
        [0, armError(429, "2")],
        [2, armError(429, "5")],
        [3, armError(503)],
        [1, Object.assign(new Error("read ECONNRESET"), { name: "RestError", code: "ECONNRESET" })],
      ]),
    );
    const rows = await clients(waits).collect(list);
    expect(rows).toEqual(Array.from({ length: 12 }, (_, i) => `row ${i}`));
    expect(asked).toEqual(["page 0", "page 0", "page 1", "page 1", "page 2", "page 2", "page 3", "page 3"]);
    expect(waits[0]).toBe(2000);
    expect(waits[2]).toBe(5000);
    expect(waits).toHaveLength(4);
  });

  it("fails, rather than answering the pages read, when a later page cannot be resumed", async () => {
    const waits: number[] = [];
    const { list } = pagedList(3, once([[1, armError(429, "1")]]), false);
    await expect(clients(waits).collect(list)).rejects.toThrow(
      /could not be read past page 1: ARM 429 \(no continuation token to resume from\)/,
    );
  });

  it("fails at once on an error that asking again cannot fix", async () => {
    const waits: number[] = [];
    const { list, asked } = pagedList(3, once([[1, armError(403)]]));
    await expect(clients(waits).collect(list)).rejects.toMatchObject({ statusCode: 403 });
    expect(asked).toEqual(["page 0", "page 1"]);
    expect(waits).toEqual([]);
  });

  it("fails once the retry budget of a page is spent", async () => {
    const waits: number[] = [];
    const { list, asked } = pagedList(2, (page) => (page === 0 ? armError(429, "1") : undefined));
    await expect(clients(waits, 3).collect(list)).rejects.toMatchObject({ statusCode: 429 });
    expect(asked).toEqual(["page 0", "page 0", "page 0"]);
    expect(waits).toEqual([1000, 1000]);
  });
});
