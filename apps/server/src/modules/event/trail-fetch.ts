import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { OrganizationTrailReader, TrailReadSummary } from "../../cloud/cloud-provider";
import { errorMessage } from "../../cloud/errors";
import type { Database } from "../../db/database";
import type { EventFetchOutcome } from "../../jobs/event-fetch-job";
import type { Logger } from "../../logger";
import { saveEventCursor, saveEventsError } from "../connector/connector-api";
import { classifyAudit } from "./classify";
import type { FetchedConnector } from "./fetch-repository";
import { loadClassifyContext } from "./load-classify-context";
import { writeEvents } from "./record-event";
import { storeRequests } from "./request-summary";
import {
  givenUpTrailFiles,
  listTrailFiles,
  pruneTrailFiles,
  recordTrailFiles,
} from "./trail-file-repository";

/** "CODE: sentence" lines for the log files a complete read still could not read. */
async function unreadFiles(
  db: Database,
  connector: FetchedConnector,
  summary: TrailReadSummary,
): Promise<string[]> {
  const lines: string[] = [];
  const retrying = summary.unread.filter((f) => f.state === "failed");
  if (retrying.length > 0)
    lines.push(
      `TRAIL_FILES_RETRYING: ${retrying.length} log file(s) could not be read and will be read again on the next fetch; the first: ${retrying[0]?.error}`,
    );
  const givenUp = await givenUpTrailFiles(db, connector.tenantId, connector.id);
  if (givenUp.count > 0)
    lines.push(
      `TRAIL_FILES_UNREADABLE: ${givenUp.count} log file(s) could not be read after every attempt and are not read again; the newest: ${givenUp.newest?.error ?? givenUp.newest?.key}`,
    );
  return lines;
}

/**
 * Reads a connector's organisation trail from its saved position: each batch of records is
 * classified, and its events, the ledger of the files it came from and (with the last batch) the
 * new position are written in one transaction. A failure of the trail as a whole is saved on the
 * connector by its name and thrown, so the job retries.
 */
export async function fetchOrganizationTrail(
  deps: { db: Database; catalogue: Catalogue; logger: Logger },
  connector: FetchedConnector,
  reader: OrganizationTrailReader,
): Promise<EventFetchOutcome> {
  const { db } = deps;
  const { tenantId, id } = connector;
  const ctx = await loadClassifyContext(deps, connector, "aws");
  let written = 0;
  try {
    const summary = await reader.read(
      connector.eventCursor ?? undefined,
      { filesOf: (prefix, fromDay) => listTrailFiles(db, tenantId, id, prefix, fromDay) },
      async (batch) => {
        const fresh = ctx.deployments.length === 0 ? [] : batch.records.flatMap((r) => classifyAudit(r, ctx));
        await db.transaction(async (tx) => {
          written += await writeEvents(tx, fresh);
          // Every request, classified or not, is what a preview of a guardrail not deployed yet reads;
          // the ledger makes each file's requests counted once.
          await storeRequests(tx, connector, batch.records, ctx.managementAccountId, new Date());
          await recordTrailFiles(tx, tenantId, id, batch.files);
          if (batch.done) {
            await pruneTrailFiles(tx, tenantId, id, batch.done.floors);
            await saveEventCursor(tx, tenantId, id, batch.done.position, new Date());
          }
        });
      },
    );
    // Unread files fail the fetch a user asked for (the others' records are stored); a trail
    // issue such as an uncovered region is shown on the connector only.
    const unread = await unreadFiles(db, connector, summary);
    const report = [...summary.issues.map((i) => `${i.code}: ${i.message}`), ...unread];
    await saveEventsError(db, tenantId, id, report.length > 0 ? report.join("\n") : null);
    return {
      records: summary.records,
      events: written,
      states: 0,
      failures: unread,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const named = typeof code === "string" && code.startsWith("TRAIL_") ? code : "TRAIL_READ_FAILED";
    await saveEventsError(db, tenantId, id, `${named}: ${errorMessage(error)}`);
    throw error;
  }
}
