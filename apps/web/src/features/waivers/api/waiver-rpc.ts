import { callConnectJson } from "@/lib/connect-json";

/** JSON forms of the public lookups and the waiver request (see palisade.policy.v1 and palisade.waiver.v1). */
export interface BundleByKeyJson {
  key?: string;
  policySlug?: string;
  feedbackMessage?: string;
}

export interface DefinitionBySlugJson {
  slug?: string;
  furtherReadingUrls?: { name?: string; href?: string }[];
}

export function getBundleByKey(key: string, signal?: AbortSignal) {
  return callConnectJson<BundleByKeyJson>(
    "palisade.policy.v1.PolicyService/GetBundleByKey",
    { key },
    { signal },
  );
}

export function getDefinitionBySlug(slug: string, signal?: AbortSignal) {
  return callConnectJson<DefinitionBySlugJson>(
    "palisade.policy.v1.PolicyService/GetDefinitionBySlug",
    { slug },
    { signal },
  );
}

/** The key of the policy a pasted deny message names only by its SCP. */
export function resolvePolicyKey(text: string, signal?: AbortSignal) {
  return callConnectJson<{ key?: string }>(
    "palisade.policy.v1.PolicyService/ResolvePolicyKey",
    { text },
    { signal },
  );
}

export function createWaiver(request: {
  key: string;
  durationSeconds: bigint;
  comment: string;
  /** The same for a resubmitted form, so the server creates one waiver. */
  idempotencyKey: string;
}) {
  return callConnectJson<unknown>(
    "palisade.waiver.v1.WaiverService/Create",
    {
      key: request.key,
      // int64 travels as a decimal string in the JSON encoding.
      duration: request.durationSeconds.toString(),
      comment: request.comment,
      createSource: "WAIVER_CREATE_SOURCE_FORM",
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

/** Query keys in the shape the signed-in pages' generated queries use, so they can be refreshed from here. */
export function connectQueryKey(serviceName: string, methodName: string) {
  return ["connect-query", { serviceName, methodName }] as const;
}
