import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { SecretBox } from "../connector/connector-api";
import type { WaiverFitCheck } from "../waiver/waiver-api";
import type { ChatTokens } from "./chat-signature";

export interface NotificationServiceDeps {
  db: Database;
  jobs: JobQueue;
  /** Refuses a waiver the cloud's policy has no room for (approvals and requests from chat). */
  fits: WaiverFitCheck;
  secretBox: SecretBox;
  tokens: ChatTokens;
  publicUrl: string;
}
