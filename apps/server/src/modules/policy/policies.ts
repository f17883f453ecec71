import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { findBundleByKeyAnyTenant } from "../deployment/bundle-repository";
import { createTtlCache } from "./ttl-cache";

/** What the public waiver page's card shows of a bundle. */
export interface BundleCard {
  key: string;
  policySlug: string;
  feedbackMessage: string;
}

export interface PolicyServiceDeps {
  db: Database;
  catalogue: Catalogue;
  /** The card of the live bundle with this (normalised) key, if any; answers may be 10 s old. */
  bundleCard(key: string): Promise<BundleCard | undefined>;
}

/** The card of the bundle with this key in whichever tenant holds it; deleted bundles have none. */
export async function findLiveBundleCard(db: Database, key: string): Promise<BundleCard | undefined> {
  const bundle = await findBundleByKeyAnyTenant(db, key);
  return bundle && !bundle.deletedAt
    ? { key: bundle.key, policySlug: bundle.policySlug, feedbackMessage: bundle.feedbackMessage }
    : undefined;
}

/** Cards of the public key lookup, found or not; a deleted bundle stops answering within 10 s. */
export function createBundleCards(db: Database): PolicyServiceDeps["bundleCard"] {
  const cards = createTtlCache<BundleCard | undefined>({ ttlMs: 10_000, maxEntries: 10_000 });
  return (key) => cards.get(key, () => findLiveBundleCard(db, key));
}
