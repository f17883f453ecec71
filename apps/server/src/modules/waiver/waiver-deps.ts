import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { WaiverAnalyticsService } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import type { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { WaiverFitCheck } from "./waiver-lifecycle";

export interface WaiverServiceDeps {
  db: Database;
  jobs: JobQueue;
  fits: WaiverFitCheck;
}

export type WaiverRpc = ServiceImpl<typeof WaiverService>;
export type WaiverAnalyticsRpc = ServiceImpl<typeof WaiverAnalyticsService>;

export const notFoundKey = (key: string) =>
  new ConnectError(`No policy with key ${key} in this tenant.`, Code.NotFound);
