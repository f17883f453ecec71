import { Code, ConnectError } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { WaiverFitCheck } from "./waiver-lifecycle";

export interface WaiverServiceDeps {
  db: Database;
  jobs: JobQueue;
  fits: WaiverFitCheck;
}

/** What waiver analytics work with. */
export interface WaiverAnalyticsServiceDeps {
  db: Database;
}

export const notFoundKey = (key: string) =>
  new ConnectError(`No policy with key ${key} in this tenant.`, Code.NotFound);
