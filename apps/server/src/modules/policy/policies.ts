import type { JsonValue } from "@bufbuild/protobuf";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { findBundleByKeyAnyTenant } from "../deployment/deployment-api";
import { findTenantDefinition } from "../policy-definition/policy-definition-api";
import { createTtlCache } from "./ttl-cache";

/** One of the bundle's settings, labelled as its policy definition labels it. */
export interface BundleCardParameter {
  name: string;
  displayName: string;
  description: string;
  value: JsonValue;
}

/** What the public waiver page's card shows of a bundle. */
export interface BundleCard {
  key: string;
  policySlug: string;
  feedbackMessage: string;
  parameters: BundleCardParameter[];
  /** A declarative policy: a waiver exempts one whole account (its scope must be an account). */
  waiverExemptsWholeAccount: boolean;
}

export interface PolicyServiceDeps {
  db: Database;
  catalogue: Catalogue;
  /** The card of the live bundle with this (normalised) key, if any; answers may be 10 s old. */
  bundleCard(key: string): Promise<BundleCard | undefined>;
}

/** The key of the live bundle holding it in whichever tenant; deleted bundles have none. */
export async function findLiveBundleKey(db: Database, key: string): Promise<string | undefined> {
  const bundle = await findBundleByKeyAnyTenant(db, key);
  return bundle && !bundle.deletedAt ? bundle.key : undefined;
}

/**
 * The card of the bundle with this key in whichever tenant holds it; deleted bundles have none.
 * Parameters follow the definition the tenant deploys (its own version of the slug, if any).
 */
export async function findLiveBundleCard(
  db: Database,
  catalogue: Catalogue,
  key: string,
): Promise<BundleCard | undefined> {
  const bundle = await findBundleByKeyAnyTenant(db, key);
  if (!bundle || bundle.deletedAt) return undefined;
  const definition =
    (await findTenantDefinition(db, bundle.tenantId, bundle.policySlug))?.definition ??
    catalogue.bySlug.get(bundle.policySlug);
  const values = (bundle.parameters ?? {}) as Record<string, unknown>;
  const parameters = (definition?.parameter_definitions ?? []).map((parameter) => ({
    name: parameter.name,
    displayName: parameter.display_name,
    description: parameter.description,
    value: (values[parameter.name] ?? parameter.default_value ?? null) as JsonValue,
  }));
  return {
    key: bundle.key,
    policySlug: bundle.policySlug,
    feedbackMessage: bundle.feedbackMessage,
    parameters,
    waiverExemptsWholeAccount: definition?.enforcer === "aws_declarative_ec2",
  };
}

/** The database's notifications of changed bundle keys (a trigger on bundles sends them). */
export type ListenForKeys = (
  channel: string,
  onMessage: (key: string) => void,
  onReconnect?: () => void,
) => Promise<() => void>;

export const BUNDLE_KEY_CHANNEL = "bundle_key_changed";

/**
 * Cards of the public key lookup, found or not. A change to a bundle is forgotten at once by every
 * replica (a notification from the database), reads of it in flight included; should the
 * listening connection be down, an answer is at most 10 s old. A key in steady use is read again
 * in its last 2 s while the cached card answers, so no lookup waits for the database on expiry.
 */
export function createBundleCards(db: Database, catalogue: Catalogue, listen?: ListenForKeys) {
  const cards = createTtlCache<BundleCard | undefined>({
    ttlMs: 10_000,
    maxEntries: 10_000,
    refreshAheadMs: 2_000,
  });
  const stop = listen?.(
    BUNDLE_KEY_CHANNEL,
    (key) => cards.delete(key),
    () => cards.clear(),
  ).catch(() => undefined);
  return {
    card: ((key) =>
      cards.get(key, () => findLiveBundleCard(db, catalogue, key))) as PolicyServiceDeps["bundleCard"],
    async close() {
      (await stop)?.();
    },
  };
}
