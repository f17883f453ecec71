import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { HandlerContext } from "@connectrpc/connect";
import type { FastifyInstance, RawServerDefault } from "fastify";
import type { Database, Transaction } from "../../db/database";
import { type ExportPayload, enqueueExport } from "../../jobs/export-job";
import type { JobQueue } from "../../jobs/job-queue";
import {
  findJobRecord,
  findJobRecordAnyTenant,
  insertJobRecord,
  updateJobRecord,
} from "../../jobs/job-record-repository";
import type { Logger } from "../../logger";
import { csvLine } from "./csv";
import {
  appendExportChunk,
  deleteExportFile,
  deleteExportFilesBeforeAnyTenant,
  exportFileSize,
  readExportFile,
} from "./export-file-repository";
import { createExportLinkSigner, LINK_TTL_MS } from "./signed-link";

/** Rows of the `jobs` table that track exports are of kind `export:<kind>`. */
const EXPORT_KIND_PREFIX = "export:";

/** CSV, a JSON array, or JSON Lines (one object per line, as `palisade audit verify` reads). */
export type ExportFormatName = "csv" | "json" | "jsonl";

/** What an export writes: column names, then rows in pages (so a large export streams). */
export interface ExportSource {
  header: string[];
  /** Rows expected, for progress; unknown when absent. */
  total?: number;
  pages: AsyncIterable<unknown[][]>;
}

/** Builds the rows of one kind of export for a tenant from the request's parameters. */
export type ExportProducer = (tenantId: string, params: Record<string, unknown>) => Promise<ExportSource>;

export interface ExportRequest {
  tenantId: string;
  /** A kind defined with `define`, e.g. "events", "bundles". */
  kind: string;
  /** JSON-serialisable: async exports carry them through the job queue. */
  params: Record<string, unknown>;
  format?: ExportFormatName;
  createdBy: string | null;
  /** The call that asked for it: data leaving Palisade is on the audit record, like a change. */
  ctx: HandlerContext;
}

/** What the audit record of an export says: the export's job, and what was exported how. */
export interface ExportAuditRecord {
  target: { type: "export"; id: string; name: string };
  after: { kind: string; format: ExportFormatName; params: Record<string, unknown> };
}

export interface ExportResult {
  jobId: string;
  /** Absolute download link, valid for 15 minutes, needing no credentials. */
  presignedUrl: string;
}

export interface ExportProgress {
  status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED";
  /** 0 to 100. */
  progress: number;
  /** Rows expected while running, rows written once done. */
  rows: number;
  error: string;
}

export interface ExportService {
  define(kind: string, producer: ExportProducer): void;
  /** Writes the file now and returns its link. */
  exportNow(request: ExportRequest): Promise<ExportResult>;
  /** Queues the export; its link answers 404 until the job has written the file. */
  exportLater(request: ExportRequest): Promise<ExportResult>;
  /** How far a tenant's export of that kind has got; undefined when there is no such export. */
  status(tenantId: string, kind: string, jobId: string): Promise<ExportProgress | undefined>;
  /** Writes the file of a queued export (the export job's work); a finished one is left alone. */
  run(payload: ExportPayload): Promise<void>;
  /** Deletes the files of exports written before `before`; answers how many. */
  deleteFilesBefore(before: Date): Promise<number>;
  /** Serves `GET /exports/<id>?expires=…&signature=…`. */
  route(app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger>): void;
}

const CONTENT_TYPES: Record<ExportFormatName, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json",
  jsonl: "application/x-ndjson",
};

function recordOf(header: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(header.map((name, i) => [name, values[i] ?? null]));
}

/** Pieces of an export's file are written to the database at about this size. */
const CHUNK_BYTES = 1024 * 1024;

/** Collects an export's text and stores it in pieces of about CHUNK_BYTES. */
function exportFileWriter(db: Database, tenantId: string, jobId: string) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await appendExportChunk(db, tenantId, jobId, seq++, data);
  };
  return {
    async write(text: string) {
      const bytes = Buffer.from(text, "utf8");
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    },
    close: flush,
  };
}

/**
 * CSV/JSON exports written by a job into the database (`export_chunks`), with progress in the
 * `jobs` table, downloaded through signed, expiring links that any replica serves.
 */
export function createExports(deps: {
  db: Database;
  jobs: JobQueue;
  serverKey: string;
  publicUrl: string;
  logger: Logger;
  /** Puts an export on the audit record, in the transaction that creates its job. */
  audit: (tx: Transaction, ctx: HandlerContext, record: ExportAuditRecord) => Promise<void>;
  now?: () => Date;
}): ExportService {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const signer = createExportLinkSigner(deps.serverKey);
  const producers = new Map<string, ExportProducer>();

  const linkOf = (jobId: string) =>
    `${deps.publicUrl}${signer.sign(jobId, new Date(now().getTime() + LINK_TTL_MS))}`;

  async function createJobRow(request: ExportRequest, format: ExportFormatName): Promise<string> {
    if (!producers.has(request.kind)) throw new Error(`No export of kind ${request.kind}`);
    return db.transaction(async (tx) => {
      const jobId = await insertJobRecord(tx, {
        tenantId: request.tenantId,
        kind: `${EXPORT_KIND_PREFIX}${request.kind}`,
        status: "QUEUED",
        createdBy: request.createdBy,
        result: { format },
      });
      await deps.audit(tx, request.ctx, {
        target: { type: "export", id: jobId, name: request.kind },
        after: { kind: request.kind, format, params: request.params },
      });
      return jobId;
    });
  }

  async function run(data: ExportPayload): Promise<void> {
    const row = await findJobRecord(db, data.tenantId, data.jobId);
    // Done by an earlier attempt, or the tenant is gone.
    if (!row || row.status === "SUCCEEDED") return;
    const producer = producers.get(data.kind);
    if (!producer) throw new Error(`No export of kind ${data.kind}`);
    await updateJobRecord(db, data.tenantId, data.jobId, { status: "RUNNING", progress: 0 });
    try {
      const source = await producer(data.tenantId, data.params);
      // A retried attempt starts the file again.
      await deleteExportFile(db, data.tenantId, data.jobId);
      const file = exportFileWriter(db, data.tenantId, data.jobId);
      let written = 0;
      let lastPercent = 0;
      if (data.format === "csv") await file.write(csvLine(source.header));
      else if (data.format === "json") await file.write("[");
      for await (const page of source.pages) {
        let chunk = "";
        for (const values of page) {
          if (data.format === "csv") chunk += csvLine(values);
          else if (data.format === "jsonl") chunk += `${JSON.stringify(recordOf(source.header, values))}\n`;
          else {
            chunk += `${written > 0 || chunk ? "," : ""}\n${JSON.stringify(recordOf(source.header, values))}`;
          }
        }
        await file.write(chunk);
        written += page.length;
        const percent = source.total ? Math.min(99, Math.floor((written / source.total) * 100)) : 0;
        if (percent >= lastPercent + 10) {
          lastPercent = percent;
          await updateJobRecord(db, data.tenantId, data.jobId, {
            progress: percent,
            total: source.total ?? null,
          });
        }
      }
      if (data.format === "json") await file.write("\n]\n");
      await file.close();
      // The link starts answering only once the whole file is there.
      await updateJobRecord(db, data.tenantId, data.jobId, {
        status: "SUCCEEDED",
        progress: 100,
        total: written,
        result: { format: data.format, rows: written },
        finishedAt: now(),
      });
    } catch (error) {
      await updateJobRecord(db, data.tenantId, data.jobId, {
        status: "FAILED",
        error: (error as Error).message,
        finishedAt: now(),
      });
      throw error;
    }
  }

  return {
    define(kind, producer) {
      producers.set(kind, producer);
    },

    async exportNow(request) {
      const format = request.format ?? "csv";
      const jobId = await createJobRow(request, format);
      await run({ jobId, tenantId: request.tenantId, kind: request.kind, params: request.params, format });
      return { jobId, presignedUrl: linkOf(jobId) };
    },

    async exportLater(request) {
      const format = request.format ?? "csv";
      const jobId = await createJobRow(request, format);
      await enqueueExport(deps.jobs, {
        jobId,
        tenantId: request.tenantId,
        kind: request.kind,
        params: request.params,
        format,
      });
      return { jobId, presignedUrl: linkOf(jobId) };
    },

    run,

    deleteFilesBefore: (before) => deleteExportFilesBeforeAnyTenant(db, before),

    async status(tenantId, kind, jobId) {
      const row = await findJobRecord(db, tenantId, jobId);
      if (!row || row.kind !== `${EXPORT_KIND_PREFIX}${kind}`) return undefined;
      const rows = (row.result as { rows?: number } | null)?.rows ?? row.total ?? 0;
      return {
        status: row.status as ExportProgress["status"],
        progress: row.progress,
        rows,
        error: row.error ?? "",
      };
    },

    route(app) {
      app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>(
        "/exports/:id",
        async (request, reply) => {
          const { id } = request.params;
          const check = signer.verify(id, request.query.expires, request.query.signature, now());
          if (check !== "ok") {
            return reply.code(403).send({
              error:
                check === "expired"
                  ? "This download link has expired; export again to get a new one."
                  : "This download link is not valid.",
            });
          }
          const row = await findJobRecordAnyTenant(db, id);
          const format = ((row?.result as { format?: ExportFormatName } | null)?.format ??
            "csv") as ExportFormatName;
          if (row?.status === "FAILED") {
            return reply.code(410).send({ error: `The export failed: ${row.error ?? "unknown error"}` });
          }
          if (row?.status !== "SUCCEEDED") {
            return reply.code(404).send({ error: "The export is not ready yet; try again in a moment." });
          }
          const size = await exportFileSize(db, row.tenantId, id);
          // Every export writes at least its header: nothing left means the file was cleaned up.
          if (size === 0) {
            return reply
              .code(410)
              .send({ error: "This export's file was deleted after a day; export again." });
          }
          const name = `${row.kind.replace(EXPORT_KIND_PREFIX, "")}-${id.slice(0, 8)}.${format}`;
          logger.debug({ exportId: id }, "export downloaded");
          return reply
            .header("content-type", CONTENT_TYPES[format])
            .header("content-disposition", `attachment; filename="${name}"`)
            .header("content-length", size)
            .header("cache-control", "private, no-store")
            .send(Readable.from(readExportFile(db, row.tenantId, id)));
        },
      );
    },
  };
}
