import { useEffect, useRef, useState } from "react";
import { forgetRemoteRead, prefetchRemoteRead, seedRemoteRead, useRemoteRead } from "@/lib/use-remote-read";
import { durationSeconds, type WaiverRequestValues } from "../forms/waiver-request-schema";
import {
  type BundleByKeyJson,
  type CreatedWaiverJson,
  createWaiver,
  type DefinitionBySlugJson,
  getBundleByKey,
  getDefinitionBySlug,
  getOwnWaiver,
  listWaiverScopes,
  type OwnWaiverJson,
} from "./waiver-rpc";

/** Scopes a waiver for the key may name; `search` below 2 characters lists them all. */
export function useWaiverScopes(key: string, search: string) {
  const input = { key: key.toUpperCase(), search: search.trim().length >= 2 ? search.trim() : "" };
  return useRemoteRead(key === "" ? null : `listWaiverScopes ${input.key} ${input.search}`, () =>
    listWaiverScopes(input.key, input.search),
  );
}

/** A read's cache key and how to load it: the hooks and the prefetch below share both. */
const bundleRead = (key: string) =>
  [`getBundleByKey ${key.toUpperCase()}`, () => getBundleByKey(key.toUpperCase())] as const;
const definitionRead = (slug: string) =>
  [`getDefinitionBySlug ${slug}`, () => getDefinitionBySlug(slug)] as const;

export function useBundleByKey(key: string) {
  const [readKey, load] = bundleRead(key);
  return useRemoteRead(key === "" ? null : readKey, load);
}

/** The policy of the key is read again: after a refused request, it may have been deleted meanwhile. */
export function forgetBundleOfKey(key: string): void {
  forgetRemoteRead(bundleRead(key)[0]);
}

export function useDefinitionBySlug(slug: string | undefined) {
  const [readKey, load] = definitionRead(slug ?? "");
  return useRemoteRead(slug ? readKey : null, load);
}

/**
 * Asks for the policy of a key given in the address, and then for its definition, as soon as the
 * page starts: the card they fill is what the page shows first. Resolves once the policy is read;
 * its definition (the card's title and further reading) is still on its way.
 */
export async function prefetchPolicyOfKey(key: string): Promise<void> {
  const bundle = await prefetchRemoteRead(...bundleRead(key));
  const slug = bundle.policySlug;
  if (slug) void prefetchRemoteRead(...definitionRead(slug)).catch(() => {});
}

/** crypto.randomUUID needs a secure context; a self-hosted server may be reached over plain HTTP. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** Sends the waiver request; a second submit of the same values (double click, retry after a lost answer) reuses the idempotency key. */
export function useCreateWaiver() {
  const lastSubmit = useRef<{ values: string; idempotencyKey: string } | null>(null);
  return (values: WaiverRequestValues) => {
    const serialized = JSON.stringify([
      values.policyKey.trim().toUpperCase(),
      values.duration,
      values.comment.trim(),
      values.scope,
    ]);
    if (lastSubmit.current?.values !== serialized) {
      lastSubmit.current = { values: serialized, idempotencyKey: randomKey() };
    }
    return createWaiver({
      key: values.policyKey,
      durationSeconds: durationSeconds(values.duration),
      comment: values.comment,
      scope: values.scope,
      idempotencyKey: lastSubmit.current.idempotencyKey,
    });
  };
}

export type { CreatedWaiverJson };

/** How often a pending waiver is read again, and for how long before the page stops asking. */
export const pendingPollMs = 3_000;
export const pendingPollLimitMs = 10 * 60_000;

/**
 * The requester's own waiver, read again every few seconds while it is PENDING so the page shows
 * the decision without a reload, and while it is PROPAGATING until the cloud honours it; polling
 * stops once it is decided or, for a decision, after ten minutes.
 */
export function useOwnWaiver(id: string | undefined, since: number): OwnWaiverJson | undefined {
  const [own, setOwn] = useState<OwnWaiverJson>();
  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function poll(waiverId: string) {
      try {
        const answer = await getOwnWaiver(waiverId, controller.signal);
        if (controller.signal.aborted) return;
        setOwn(answer);
        // Propagating ends at a known time: it is followed to ACTIVE however long the decision took.
        if (answer.waiver?.status === "WAIVER_STATUS_PROPAGATING") {
          timer = setTimeout(() => poll(waiverId), pendingPollMs);
          return;
        }
        if (answer.waiver?.status !== "WAIVER_STATUS_PENDING") return;
      } catch {
        // A failed read is asked again at the next turn.
        if (controller.signal.aborted) return;
      }
      if (Date.now() - since < pendingPollLimitMs) timer = setTimeout(() => poll(waiverId), pendingPollMs);
    }
    void poll(id);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id, since]);
  return own;
}

/**
 * Holds the answers a server-rendered page was rendered with as the page's own reads of the key's
 * policy and its definition, so that they are not asked again and the first render matches.
 */
export function seedPolicyOfKey(
  key: string,
  bundle: BundleByKeyJson,
  definition?: DefinitionBySlugJson,
): void {
  seedRemoteRead(bundleRead(key)[0], bundle);
  if (definition && bundle.policySlug) seedRemoteRead(definitionRead(bundle.policySlug)[0], definition);
}
