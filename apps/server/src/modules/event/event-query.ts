import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import type { EventTypeName } from "./policy-event";

/** An EventFilter checked and reduced to what the SQL needs. */
export interface EventQuery {
  types: EventTypeName[];
  /** DISMISSED in the type list: dismissed events match whatever their type. */
  includeDismissedType: boolean;
  resourceName?: string;
  resourceTypes: string[];
  policyNames: string[];
  /** Lower-cased scope ids, expanded to the scopes below them. */
  scopes: string[];
  /** Lower-cased requested scopes, for ARM ids that are below them by prefix. */
  scopePrefixes: string[];
  users: string[];
  policyId?: string;
  start?: Date;
  end?: Date;
  isDismissed?: boolean;
  archived?: boolean;
  providers: ("AWS" | "AZURE" | "UNSPECIFIED")[];
}

export const TYPE_NAMES: Record<EventType, EventTypeName | undefined> = {
  [EventType.UNSPECIFIED]: undefined,
  [EventType.PREVENTION]: "PREVENTION",
  [EventType.DRIFT]: "DRIFT",
  [EventType.HISTORICAL_DRIFT]: "HISTORICAL_DRIFT",
  [EventType.WAIVED]: "WAIVED",
  [EventType.MISSING]: "MISSING",
  [EventType.RESOLVED]: "RESOLVED",
  [EventType.DISMISSED]: "DISMISSED",
  [EventType.ALERT]: "ALERT",
};

export function eventTypeOf(name: string): EventType {
  const entry = Object.entries(TYPE_NAMES).find(([, value]) => value === name);
  return entry ? (Number(entry[0]) as EventType) : EventType.UNSPECIFIED;
}

export function providerNameOf(provider: CloudProvider): "AWS" | "AZURE" | "UNSPECIFIED" {
  return provider === CloudProvider.AWS ? "AWS" : provider === CloudProvider.AZURE ? "AZURE" : "UNSPECIFIED";
}

/** The stored provider names a filter's cloud providers select; an empty list selects all. */
export function providerFilterOf(providers: readonly CloudProvider[]): ("AWS" | "AZURE" | "UNSPECIFIED")[] {
  return providers.map(providerNameOf);
}

/** Position in a keyset-paged list: the sort value and id of an item. */
export interface Keyset {
  value: string;
  id: string;
}

export function encodeKeyset(k: Keyset): string {
  return Buffer.from(JSON.stringify([k.value, k.id])).toString("base64url");
}

export function decodeKeyset(text: string | undefined): Keyset | undefined | "invalid" {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string"
    ) {
      return { value: value[0], id: value[1] };
    }
  } catch {
    // Falls through to "invalid".
  }
  return "invalid";
}
