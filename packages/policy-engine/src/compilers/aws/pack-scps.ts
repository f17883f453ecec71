import type { PackedPolicyType } from "../../catalogue/definition-schema";
import { POLICY_KEY_LENGTH } from "../../keys/policy-key";

/** How many SCPs a root, OU or account may have, and how long each may be. */
export interface ScpLimits {
  perTarget: number;
  characters: number;
}

/**
 * AWS Organizations' quotas for SCPs
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html, "Maximum
 * size of a policy document" and "Number of policies that you can attach to an entity"): 10,240
 * characters, ten per root, OU or account, FullAWSAccess counted among them. AWS doubled both (from
 * 5,120 and five) on 15 May 2026, in every partition and without a request.
 */
export const DEFAULT_SCP_LIMITS: ScpLimits = { perTarget: 10, characters: 10_240 };
/**
 * Resource control policies' quotas (same page, same tables): 5,120 characters, five per root, OU or
 * account, RCPFullAWSAccess counted among them.
 */
export const DEFAULT_RCP_LIMITS: ScpLimits = { perTarget: 5, characters: 5120 };
/** The SCP quotas before AWS doubled them, which a connector may still state for its organisation. */
export const LOWER_SCP_LIMITS: ScpLimits = { perTarget: 5, characters: 5120 };

/** One guardrail to place on a target: the statements of its own compiled SCP. */
export interface PackGuardrail {
  key: string;
  slug: string;
  /** The `content` of the guardrail's compiled SCP. */
  content: string;
}

export interface PackedScp {
  /** Stable position on the target: the SCP named `palisade-<target>-<slot>`. */
  slot: number;
  name: string;
  description: string;
  content: string;
  keys: string[];
}

export interface Unplaced {
  key: string;
  slug: string;
  /** Characters the guardrail needs in an SCP. */
  needed: number;
  /** How many characters it is short of the largest room left. */
  over: number;
  message: string;
}

export interface PackResult {
  packs: PackedScp[];
  unplaced: Unplaced[];
}

export interface PackInput {
  target: string;
  /** Shown in messages; the target's id when absent. */
  targetName?: string;
  /** In priority order: the first ones are placed first; later ones fail first. */
  guardrails: PackGuardrail[];
  limits: ScpLimits;
  /** SCPs attached to the target that Palisade did not create (FullAWSAccess included). */
  foreign: number;
  /** Where each key was before, so a change moves as little as possible. */
  previous?: ReadonlyMap<string, number>;
  /** SCPs by default; RCP packs are named apart so neither type's packs are mistaken for the other's. */
  policyType?: PackedPolicyType;
}

const HEAD = '{"Version":"2012-10-17","Statement":[';
const TAIL = "]}";
/** Characters of an SCP holding no statement. */
export const SCP_OVERHEAD = HEAD.length + TAIL.length;

type Json = Record<string, unknown>;

/** Sorted keys all the way down, so equal conditions print equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** The Sid of the n-th statement of a guardrail: its key, so a deny maps back to it. */
export function packedSid(key: string, index: number): string {
  return `P${key}${index.toString(36).toUpperCase()}`;
}

const SID_KEY = new RegExp(`^(?:Palisade|P)([0-9A-HJKMNP-TV-Z]{${POLICY_KEY_LENGTH}})`);

/** The guardrail key a Palisade statement's Sid carries (packed or per-bundle SCPs). */
export function keyOfSid(sid: string | undefined): string | undefined {
  return sid ? SID_KEY.exec(sid)?.[1] : undefined;
}

/**
 * The guardrail's statements, minified: statements that differ only in their actions (same
 * effect, resources and conditions) become one, and every Sid is `P<key><n>`.
 */
export function guardrailStatements(guardrail: PackGuardrail): string[] {
  const document = JSON.parse(guardrail.content) as { Statement: Json[] };
  const merged: Json[] = [];
  const byShape = new Map<string, Json>();
  for (const statement of document.Statement) {
    const { Sid: _sid, Action, ...rest } = statement;
    if (Action === undefined) {
      merged.push(rest);
      continue;
    }
    const shape = canonical(rest);
    const same = byShape.get(shape);
    if (!same) {
      const copy: Json = { ...rest, Action: [...new Set(list(Action).map(String))] };
      byShape.set(shape, copy);
      merged.push(copy);
      continue;
    }
    const actions = same.Action as string[];
    for (const action of list(Action).map(String)) if (!actions.includes(action)) actions.push(action);
  }
  return merged.map((statement, index) => {
    const { Effect, Principal, Action, NotAction, Resource, NotResource, Condition, ...other } = statement;
    const one = (value: unknown) => (Array.isArray(value) && value.length === 1 ? value[0] : value);
    return JSON.stringify({
      Sid: packedSid(guardrail.key, index),
      Effect,
      ...(Principal !== undefined ? { Principal } : {}),
      ...(Action !== undefined ? { Action: one(Action) } : { NotAction }),
      ...(NotResource !== undefined ? { NotResource } : { Resource }),
      ...(Condition !== undefined ? { Condition } : {}),
      ...other,
    });
  });
}

interface Item {
  guardrail: PackGuardrail;
  /** The statements joined by commas. */
  body: string;
}

/** Characters of an SCP holding these items. */
function sizeOf(items: Item[]): number {
  if (items.length === 0) return SCP_OVERHEAD;
  return SCP_OVERHEAD + items.reduce((sum, item) => sum + item.body.length, 0) + items.length - 1;
}

/** Whether an item fits in a bin (an SCP's items) under the character limit. */
const fits = (bin: Item[], item: Item, limit: number) => sizeOf([...bin, item]) <= limit;

/** First fit, largest first (ties by key): the usual near-optimal bin packing, deterministic. */
function firstFitDecreasing(items: Item[], bins: Item[][], slots: number, limit: number): boolean {
  const order = [...items].sort(
    (a, b) => b.body.length - a.body.length || (a.guardrail.key < b.guardrail.key ? -1 : 1),
  );
  for (const item of order) {
    let bin = bins.find((b) => fits(b, item, limit));
    if (!bin) {
      if (bins.length >= slots || sizeOf([item]) > limit) return false;
      bin = [];
      bins.push(bin);
    }
    bin.push(item);
  }
  return true;
}

/** Keeps each item in its previous slot where it still fits, then places the rest. */
function stablePack(items: Item[], slots: number, limit: number, previous: ReadonlyMap<string, number>) {
  const bins: Item[][] = Array.from({ length: slots }, () => []);
  const rest: Item[] = [];
  for (const item of items) {
    const slot = previous.get(item.guardrail.key);
    if (slot !== undefined && slot < slots && fits(bins[slot]!, item, limit)) bins[slot]!.push(item);
    else rest.push(item);
  }
  const order = [...rest].sort(
    (a, b) => b.body.length - a.body.length || (a.guardrail.key < b.guardrail.key ? -1 : 1),
  );
  for (const item of order) {
    // Prefer slots already in use, so no SCP is created while an existing one has room.
    const used = bins.findIndex((b) => b.length > 0 && fits(b, item, limit));
    const index = used >= 0 ? used : bins.findIndex((b) => fits(b, item, limit));
    if (index < 0) return undefined;
    bins[index]!.push(item);
  }
  return bins;
}

function pack(items: Item[], slots: number, limit: number, previous?: ReadonlyMap<string, number>) {
  if (previous && previous.size > 0) {
    const stable = stablePack(items, slots, limit, previous);
    if (stable) return stable;
  }
  const bins: Item[][] = [];
  return firstFitDecreasing(items, bins, slots, limit) ? bins : undefined;
}

/**
 * Packs the guardrails of one target into as few SCPs as the limits allow. Each guardrail's
 * statements stay together in one SCP (so an update of one guardrail rewrites one SCP, atomically)
 * and keep its key in their Sids. Guardrails are accepted in the given order; one that cannot fit
 * with those before it is reported with how far it is over, and the others are still packed.
 * The same input always gives the same SCPs.
 */
export function packScps(input: PackInput): PackResult {
  const { target, limits } = input;
  const slots = Math.max(0, limits.perTarget - input.foreign);
  const accepted: Item[] = [];
  const unplaced: Unplaced[] = [];
  let bins: Item[][] = [];
  for (const guardrail of input.guardrails) {
    const item = { guardrail, body: guardrailStatements(guardrail).join(",") };
    const next = pack([...accepted, item], slots, limits.characters, input.previous);
    if (next) {
      accepted.push(item);
      bins = next;
      continue;
    }
    unplaced.push(describeUnplaced(input, item, bins, slots));
  }
  const packs: PackedScp[] = [];
  bins.forEach((bin, slot) => {
    if (bin.length === 0) return;
    const ordered = [...bin].sort((a, b) => (a.guardrail.key < b.guardrail.key ? -1 : 1));
    const keys = ordered.map((item) => item.guardrail.key);
    packs.push({
      slot,
      name: scpPackName(target, slot, input.policyType),
      description: `Palisade guardrails ${keys.join(" ")}`.slice(0, 512),
      content: `${HEAD}${ordered.map((item) => item.body).join(",")}${TAIL}`,
      keys,
    });
  });
  return { packs, unplaced };
}

function describeUnplaced(input: PackInput, item: Item, bins: Item[][], slots: number): Unplaced {
  const { limits } = input;
  const needed = sizeOf([item]);
  const used = bins.filter((bin) => bin.length > 0);
  const emptySlots = slots - used.length;
  // An empty slot offers the whole SCP; a used one what its content leaves (plus the comma).
  const room = Math.max(
    emptySlots > 0 ? limits.characters : 0,
    ...used.map((bin) => limits.characters - sizeOf(bin) - 1 + SCP_OVERHEAD),
  );
  const over = Math.max(1, needed - (room >= SCP_OVERHEAD ? room : 0));
  const where = input.targetName ? `${input.targetName} (${input.target})` : input.target;
  const reason =
    needed > limits.characters
      ? `it alone is ${needed} characters, ${needed - limits.characters} over the ${limits.characters}-character limit of one SCP`
      : `it needs ${needed} characters and the largest room left is ${Math.max(0, room)}, ${over} characters short, ` +
        `with ${slots} of the ${limits.perTarget} SCPs per target available to Palisade ` +
        `(${input.foreign} attached by others)`;
  return {
    key: item.guardrail.key,
    slug: item.guardrail.slug,
    needed,
    over,
    message: `${item.guardrail.key} (${item.guardrail.slug}) does not fit on ${where}: ${reason}.`,
  };
}

const PACK_PREFIX: Record<PackedPolicyType, string> = {
  SERVICE_CONTROL_POLICY: "palisade-",
  RESOURCE_CONTROL_POLICY: "palisade-rcp-",
};

/** The name of the packed policy at a slot of a target: `palisade-<target>-<slot>`, `palisade-rcp-…` for RCPs. */
export function scpPackName(
  target: string,
  slot: number,
  policyType: PackedPolicyType = "SERVICE_CONTROL_POLICY",
): string {
  return `${PACK_PREFIX[policyType]}${target}-${slot}`;
}

const PACK_NAME = /^((?:r|ou)-[0-9a-z-]+|\d{12})-(\d+)$/;

/** The target and slot of a packed policy's name of that type; undefined for any other policy. */
export function parsePackName(
  name: string,
  policyType: PackedPolicyType = "SERVICE_CONTROL_POLICY",
): { target: string; slot: number } | undefined {
  const prefix = PACK_PREFIX[policyType];
  if (!name.startsWith(prefix)) return undefined;
  const match = PACK_NAME.exec(name.slice(prefix.length));
  return match ? { target: match[1]!, slot: Number(match[2]) } : undefined;
}

/** The keys a packed SCP's statements carry. */
export function keysOfContent(content: string): string[] {
  try {
    const document = JSON.parse(content) as { Statement?: Json[] | Json };
    const keys = list(document.Statement ?? []).map((s) => keyOfSid((s as Json).Sid as string | undefined));
    return [...new Set(keys.filter((k): k is string => Boolean(k)))];
  } catch {
    return [];
  }
}
