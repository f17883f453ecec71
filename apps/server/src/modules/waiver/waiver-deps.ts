import { Code, ConnectError } from "@connectrpc/connect";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { WaiverFitCheck } from "./waiver-lifecycle";

export interface WaiverServiceDeps {
  db: Database;
  jobs: JobQueue;
  fits: WaiverFitCheck;
  /** Which policy type a bundle's definition is: an RCP's waiver may name an outside principal. */
  catalogue: Catalogue;
}

/** What waiver analytics work with. */
export interface WaiverAnalyticsServiceDeps {
  db: Database;
}

export const notFoundKey = (key: string) =>
  new ConnectError(`No policy with key ${key} in this tenant.`, Code.NotFound);
