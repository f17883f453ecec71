import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { durationSeconds, type WaiverRequestValues } from "../forms/waiver-request-schema";
import {
  type CreatedWaiverJson,
  createWaiver,
  getBundleByKey,
  getDefinitionBySlug,
  getOwnWaiver,
  listWaiverScopes,
  type OwnWaiverJson,
  policyRpc,
  waiverRpc,
} from "./waiver-rpc";

export function bundleByKeyQuery(key: string) {
  const input = { key: key.toUpperCase() };
  return queryOptions({
    queryKey: policyRpc.queryKey("getBundleByKey", input),
    queryFn: ({ signal }) => getBundleByKey(input.key, signal),
    enabled: key !== "",
  });
}

export function definitionBySlugQuery(slug: string | undefined) {
  const input = { slug: slug ?? "" };
  return queryOptions({
    queryKey: policyRpc.queryKey("getDefinitionBySlug", input),
    queryFn: ({ signal }) => getDefinitionBySlug(input.slug, signal),
    enabled: !!slug,
  });
}

/** Scopes a waiver for the key may name; `search` below 2 characters lists them all. */
export function waiverScopesQuery(key: string, search: string) {
  const input = { key: key.toUpperCase(), search: search.trim().length >= 2 ? search.trim() : "" };
  return queryOptions({
    queryKey: policyRpc.queryKey("listWaiverScopes", input),
    queryFn: ({ signal }) => listWaiverScopes(input.key, input.search, signal),
    enabled: key !== "",
    staleTime: 60_000,
  });
}

export function useWaiverScopes(key: string, search: string) {
  return useQuery(waiverScopesQuery(key, search));
}

export function useBundleByKey(key: string) {
  return useQuery(bundleByKeyQuery(key));
}

export function useDefinitionBySlug(slug: string | undefined) {
  return useQuery(definitionBySlugQuery(slug));
}

/** What a new waiver changes on the signed-in pages: the waiver lists and counts, the policies' waiver counts. */
const changedByCreate = [
  waiverRpc.methodKey("summary"),
  waiverRpc.methodKey("list"),
  policyRpc.methodKey("getPolicies"),
];

/** crypto.randomUUID needs a secure context; a self-hosted server may be reached over plain HTTP. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

export function useCreateWaiver() {
  const queryClient = useQueryClient();
  const lastSubmit = useRef<{ values: string; idempotencyKey: string } | null>(null);
  /** A second submit of the same values (double click, retry after a lost answer) reuses the key. */
  const idempotencyKeyFor = (values: WaiverRequestValues) => {
    const serialized = JSON.stringify([
      values.policyKey.trim().toUpperCase(),
      values.duration,
      values.comment.trim(),
      values.scope,
    ]);
    if (lastSubmit.current?.values !== serialized) {
      lastSubmit.current = { values: serialized, idempotencyKey: randomKey() };
    }
    return lastSubmit.current.idempotencyKey;
  };
  return useMutation({
    mutationFn: (values: WaiverRequestValues) =>
      createWaiver({
        key: values.policyKey,
        durationSeconds: durationSeconds(values.duration),
        comment: values.comment,
        scope: values.scope,
        idempotencyKey: idempotencyKeyFor(values),
      }),
    onSuccess: () =>
      Promise.all(changedByCreate.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export type { CreatedWaiverJson };

/** How often a pending waiver is read again, and for how long before the page stops asking. */
export const pendingPollMs = 3_000;
export const pendingPollLimitMs = 10 * 60_000;

/**
 * The requester's own waiver, read again every few seconds while it is PENDING so the page shows
 * the decision without a reload; polling stops once it is decided or after ten minutes.
 */
export function useOwnWaiver(id: string | undefined, since: number) {
  return useQuery({
    queryKey: waiverRpc.queryKey("getOwn", { id: id ?? "" }),
    queryFn: ({ signal }) => getOwnWaiver(id ?? "", signal),
    enabled: !!id,
    refetchInterval: (query) => {
      const data = query.state.data as OwnWaiverJson | undefined;
      const pending = !data || data.waiver?.status === "WAIVER_STATUS_PENDING";
      return pending && Date.now() - since < pendingPollLimitMs ? pendingPollMs : false;
    },
    refetchIntervalInBackground: true,
  });
}
