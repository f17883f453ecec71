import type { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import type { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { createJsonClient } from "@/lib/connect-json";
import type { ResponseJson } from "@/lib/connect-json-types";

/** The public lookups and the waiver request, over the JSON client (see palisade.policy.v1 and palisade.waiver.v1). */
export const policyRpc = createJsonClient<typeof PolicyService>("palisade.policy.v1.PolicyService");
export const waiverRpc = createJsonClient<typeof WaiverService>("palisade.waiver.v1.WaiverService");

export type BundleByKeyJson = ResponseJson<typeof PolicyService, "getBundleByKey">;
export type WaiverScopesJson = ResponseJson<typeof PolicyService, "listWaiverScopes">;
export type WaiverScopeJson = NonNullable<WaiverScopesJson["scopes"]>[number];
export type DefinitionBySlugJson = ResponseJson<typeof PolicyService, "getDefinitionBySlug">;

/** A GET: the waiver page's head preloads it for the key in the address (see the server's page-preloads.ts). */
export function getBundleByKey(key: string, signal?: AbortSignal) {
  return policyRpc.call("getBundleByKey", { key }, { signal, get: true });
}

export function getDefinitionBySlug(slug: string, signal?: AbortSignal) {
  return policyRpc.call("getDefinitionBySlug", { slug }, { signal });
}

/** Where a waiver for the key may apply: accounts, subscriptions and resource groups, 50 a page. */
export function listWaiverScopes(key: string, search: string, signal?: AbortSignal) {
  return policyRpc.call("listWaiverScopes", { key, ...(search ? { search } : {}) }, { signal });
}

/** The key of the policy a pasted deny message names only by its SCP. */
export function resolvePolicyKey(text: string, signal?: AbortSignal) {
  return policyRpc.call("resolvePolicyKey", { text }, { signal });
}

export type CreatedWaiverJson = ResponseJson<typeof WaiverService, "create">;
export type OwnWaiverJson = ResponseJson<typeof WaiverService, "getOwn">;

/** A waiver the signed-in caller requested, with the name of the tenant whose reviewers decide on it. */
export function getOwnWaiver(id: string, signal?: AbortSignal) {
  return waiverRpc.call("getOwn", { id }, { signal });
}

export function createWaiver(request: {
  key: string;
  durationSeconds: bigint;
  comment: string;
  /** An account, subscription or resource group id; empty for every scope of the policy. */
  scope: string;
  /** The same for a resubmitted form, so the server creates one waiver. */
  idempotencyKey: string;
}) {
  return waiverRpc.call(
    "create",
    {
      key: request.key,
      // int64 travels as a decimal string in the JSON encoding.
      duration: request.durationSeconds.toString(),
      comment: request.comment,
      createSource: "WAIVER_CREATE_SOURCE_FORM",
      ...(request.scope ? { scopeExternalId: request.scope } : {}),
    },
    {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...(init?.headers as Record<string, string>),
            "Idempotency-Key": request.idempotencyKey,
          },
        }),
    },
  );
}
