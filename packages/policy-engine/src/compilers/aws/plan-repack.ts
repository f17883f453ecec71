import { keyOfSid, keysOfContent, type PackedScp } from "./pack-scps";

/** A packed SCP as it is in the organisation now. */
export interface CurrentPack {
  slot: number;
  /** The SCP's id (`p-...`). */
  id: string;
  content: string;
}

export type RepackStep =
  /** Create the SCP of a new slot and attach it to the target. */
  | { op: "create"; slot: number; name: string; description: string; content: string; keys: string[] }
  /** Rewrite an attached SCP in place (one atomic update in AWS Organizations). */
  | {
      op: "update";
      slot: number;
      id: string;
      name: string;
      description: string;
      content: string;
      keys: string[];
    }
  /** Detach the SCP of a slot no longer needed from the target, and delete it. */
  | { op: "remove"; slot: number; id: string };

type Json = Record<string, unknown>;

function statementsOf(content: string): Json[] {
  try {
    const statement = (JSON.parse(content) as { Statement?: Json[] | Json }).Statement ?? [];
    return Array.isArray(statement) ? statement : [statement];
  } catch {
    return [];
  }
}

/** `final` plus the statements of `keys` taken from `current`. */
function withKept(final: string, current: string, keys: Set<string>): string {
  const kept = statementsOf(current).filter((s) => keys.has(keyOfSid(s.Sid as string) ?? ""));
  const document = JSON.parse(final) as { Version: string; Statement: Json[] };
  return JSON.stringify({ Version: document.Version, Statement: [...document.Statement, ...kept] });
}

/**
 * The order in which to move a target from its current SCPs to the packed ones so that no
 * guardrail that stays is ever missing: an SCP that gains a guardrail is written before the one
 * that loses it; when two SCPs exchange guardrails, one of them first holds both (if it fits the
 * character limit); SCPs no longer needed are detached last.
 */
export function planRepack(current: CurrentPack[], next: PackedScp[], characterLimit: number): RepackStep[] {
  const nextKeys = new Set(next.flatMap((p) => p.keys));
  const bySlot = new Map(current.map((c) => [c.slot, c]));
  // Where each key is in force now, by slot.
  const present = new Map<string, Set<number>>();
  const live = new Map<number, Set<string>>();
  for (const pack of current) {
    const keys = new Set(keysOfContent(pack.content));
    live.set(pack.slot, keys);
    for (const key of keys) present.set(key, new Set([...(present.get(key) ?? []), pack.slot]));
  }
  const steps: RepackStep[] = [];
  const write = (pack: PackedScp, content: string, keys: Set<string>) => {
    const existing = bySlot.get(pack.slot);
    const step = {
      slot: pack.slot,
      name: pack.name,
      description: pack.description,
      content,
      keys: [...keys],
    };
    steps.push(existing ? { op: "update", id: existing.id, ...step } : { op: "create", ...step });
    for (const key of live.get(pack.slot) ?? []) if (!keys.has(key)) present.get(key)?.delete(pack.slot);
    for (const key of keys) present.set(key, new Set([...(present.get(key) ?? []), pack.slot]));
    live.set(pack.slot, keys);
  };
  // Keys a slot would drop that stay on the target and are in force nowhere else yet.
  const stranded = (pack: PackedScp) =>
    [...(live.get(pack.slot) ?? [])].filter(
      (key) =>
        !pack.keys.includes(key) &&
        nextKeys.has(key) &&
        [...(present.get(key) ?? [])].every((slot) => slot === pack.slot),
    );

  let pending = next.filter((pack) => bySlot.get(pack.slot)?.content !== pack.content);
  const transitional = new Set<number>();
  while (pending.length > 0) {
    const ready = pending.find((pack) => stranded(pack).length === 0);
    if (ready) {
      write(ready, ready.content, new Set(ready.keys));
      pending = pending.filter((p) => p !== ready);
      continue;
    }
    // A cycle: let one SCP hold its new guardrails and the ones it gives away, for a moment.
    const bridge = pending.find((pack) => {
      if (transitional.has(pack.slot)) return false;
      const keep = new Set(stranded(pack));
      return withKept(pack.content, bySlot.get(pack.slot)?.content ?? "", keep).length <= characterLimit;
    });
    if (bridge) {
      const keep = new Set(stranded(bridge));
      const content = withKept(bridge.content, bySlot.get(bridge.slot)?.content ?? "", keep);
      write(bridge, content, new Set([...bridge.keys, ...keep]));
      transitional.add(bridge.slot);
      continue;
    }
    // Nothing can hold both: write the first one as it is (a guardrail is missing for one call).
    const forced = pending[0]!;
    write(forced, forced.content, new Set(forced.keys));
    pending = pending.slice(1);
  }
  const nextSlots = new Set(next.map((p) => p.slot));
  for (const pack of current)
    if (!nextSlots.has(pack.slot)) steps.push({ op: "remove", slot: pack.slot, id: pack.id });
  return steps;
}
