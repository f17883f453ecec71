import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { ConnectorRuntime } from "../connector/connector-api";
import type { ExportService } from "../export/export-api";
import type { BundleEngine } from "./bundle-engine";

/** What the deployment manager's RPCs work with. */
export interface DeploymentServiceDeps {
  db: Database;
  /** The connectors' connections: which account of an organisation is its management account. */
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  engine: BundleEngine;
  exports: ExportService;
  /** Public address of Palisade; waiver links use the tenant's own base URL when it has one. */
  publicUrl: string;
}
