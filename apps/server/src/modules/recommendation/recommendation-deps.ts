import { Code, ConnectError } from "@connectrpc/connect";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import { invalidField } from "../../rpc/errors";
import type { ConnectorRuntime } from "../connector/connector-api";
import type { RecommendationComputer } from "./recommendation-compute";
import { findRecommendation, type RecommendationRow } from "./recommendation-repository";

export interface RecommendationServiceDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  /** Public address of Palisade, for the waiver links of the bundles an install creates. */
  publicUrl: string;
  computer: RecommendationComputer;
}

/** The tenant's recommendation with this id, or NotFound (another tenant's is not found either). */
export async function requireRecommendation(
  db: Database,
  tenantId: string,
  id: string,
): Promise<RecommendationRow> {
  const key = id.trim();
  if (!key) throw invalidField("id", "give the recommendation's id.");
  const row = await findRecommendation(db, tenantId, key);
  if (!row)
    throw new ConnectError("No such recommendation in this tenant; it may have been removed.", Code.NotFound);
  return row;
}
