import { createReadStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance, RawServerDefault } from "fastify";
import type { Database } from "../../db/database";
import { jobs as jobRows } from "../../db/schema/operations";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { csvLine } from "./csv";
import { createExportLinkSigner, LINK_TTL_MS } from "./signed-link";

export type ExportFormatName = "csv" | "json";

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
}

export interface ExportResult {
  jobId: string;
  /** Absolute download link, valid for 15 minutes, needing no credentials. */
  presignedUrl: string;
}

export interface ExportService {
  define(kind: string, producer: ExportProducer): void;
  /** Writes the file now and returns its link. */
  exportNow(request: ExportRequest): Promise<ExportResult>;
  /** Queues the export; its link answers 404 until the job has written the file. */
  exportLater(request: ExportRequest): Promise<ExportResult>;
  /** Serves `GET /exports/<id>?expires=…&signature=…`. */
  route(app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger>): void;
}

const QUEUE = "export.run";
const KIND_PREFIX = "export:";

interface ExportJobData {
  jobId: string;
  tenantId: string;
  kind: string;
  params: Record<string, unknown>;
  format: ExportFormatName;
}

/**
 * CSV/JSON exports written by a job into `<dir>/<job id>.<ext>`, with progress in the `jobs`
 * table, downloaded through signed, expiring links served by Palisade itself.
 */
export async function startExports(deps: {
  db: Database;
  jobs: JobQueue;
  serverKey: string;
  dir: string;
  publicUrl: string;
  logger: Logger;
  now?: () => Date;
}): Promise<ExportService> {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const signer = createExportLinkSigner(deps.serverKey);
  const producers = new Map<string, ExportProducer>();
  mkdirSync(deps.dir, { recursive: true });

  const fileOf = (jobId: string, format: ExportFormatName) => join(deps.dir, `${jobId}.${format}`);
  const linkOf = (jobId: string) =>
    `${deps.publicUrl}${signer.sign(jobId, new Date(now().getTime() + LINK_TTL_MS))}`;

  async function createJobRow(request: ExportRequest, format: ExportFormatName): Promise<string> {
    if (!producers.has(request.kind)) throw new Error(`No export of kind ${request.kind}`);
    const [row] = await db
      .insert(jobRows)
      .values({
        tenantId: request.tenantId,
        kind: `${KIND_PREFIX}${request.kind}`,
        status: "QUEUED",
        createdBy: request.createdBy,
        result: { format },
      })
      .returning({ id: jobRows.id });
    if (!row) throw new Error("job insert returned nothing");
    return row.id;
  }

  async function run(data: ExportJobData): Promise<void> {
    const [row] = await db.select().from(jobRows).where(eq(jobRows.id, data.jobId)).limit(1);
    // Done by an earlier attempt, or the tenant is gone.
    if (!row || row.status === "SUCCEEDED") return;
    const producer = producers.get(data.kind);
    if (!producer) throw new Error(`No export of kind ${data.kind}`);
    await db.update(jobRows).set({ status: "RUNNING", progress: 0 }).where(eq(jobRows.id, data.jobId));
    try {
      const source = await producer(data.tenantId, data.params);
      const target = fileOf(data.jobId, data.format);
      const partial = `${target}.partial`;
      const file = await open(partial, "w");
      let written = 0;
      let lastPercent = 0;
      try {
        if (data.format === "csv") await file.write(csvLine(source.header));
        else await file.write("[");
        for await (const page of source.pages) {
          let chunk = "";
          for (const values of page) {
            if (data.format === "csv") chunk += csvLine(values);
            else {
              const record = Object.fromEntries(source.header.map((name, i) => [name, values[i] ?? null]));
              chunk += `${written > 0 || chunk ? "," : ""}\n${JSON.stringify(record)}`;
            }
          }
          await file.write(chunk);
          written += page.length;
          const percent = source.total ? Math.min(99, Math.floor((written / source.total) * 100)) : 0;
          if (percent >= lastPercent + 10) {
            lastPercent = percent;
            await db
              .update(jobRows)
              .set({ progress: percent, total: source.total ?? null })
              .where(eq(jobRows.id, data.jobId));
          }
        }
        if (data.format === "json") await file.write("\n]\n");
      } finally {
        await file.close();
      }
      // The link starts answering only once the whole file is there.
      renameSync(partial, target);
      await db
        .update(jobRows)
        .set({
          status: "SUCCEEDED",
          progress: 100,
          total: written,
          result: { format: data.format, rows: written },
          finishedAt: now(),
        })
        .where(eq(jobRows.id, data.jobId));
    } catch (error) {
      await db
        .update(jobRows)
        .set({ status: "FAILED", error: (error as Error).message, finishedAt: now() })
        .where(eq(jobRows.id, data.jobId));
      throw error;
    }
  }

  await deps.jobs.register<ExportJobData>({
    name: QUEUE,
    retryLimit: 3,
    expireInSeconds: 900,
    concurrency: 1,
    handler: ({ data }) => run(data),
  });

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
      await deps.jobs.send<ExportJobData>(QUEUE, {
        jobId,
        tenantId: request.tenantId,
        kind: request.kind,
        params: request.params,
        format,
      });
      return { jobId, presignedUrl: linkOf(jobId) };
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
          const [row] = await db
            .select({
              status: jobRows.status,
              kind: jobRows.kind,
              result: jobRows.result,
              error: jobRows.error,
            })
            .from(jobRows)
            .where(and(eq(jobRows.id, id)))
            .limit(1);
          const format = ((row?.result as { format?: ExportFormatName } | null)?.format ??
            "csv") as ExportFormatName;
          const file = fileOf(id, format);
          if (row?.status === "FAILED") {
            return reply.code(410).send({ error: `The export failed: ${row.error ?? "unknown error"}` });
          }
          if (row?.status !== "SUCCEEDED" || !existsSync(file)) {
            return reply.code(404).send({ error: "The export is not ready yet; try again in a moment." });
          }
          const name = `${row.kind.replace(KIND_PREFIX, "")}-${id.slice(0, 8)}.${format}`;
          logger.debug({ exportId: id }, "export downloaded");
          return reply
            .header("content-type", format === "csv" ? "text/csv; charset=utf-8" : "application/json")
            .header("content-disposition", `attachment; filename="${name}"`)
            .header("content-length", statSync(file).size)
            .header("cache-control", "private, no-store")
            .send(createReadStream(file));
        },
      );
    },
  };
}
