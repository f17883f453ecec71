import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { type SQL, sql } from "drizzle-orm";
import type { EventTypeName } from "./record-event";

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

export function cloudProviderOf(name: string): CloudProvider {
  return name === "AWS"
    ? CloudProvider.AWS
    : name === "AZURE"
      ? CloudProvider.AZURE
      : CloudProvider.UNSPECIFIED;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE conditions of a filter on `policy_events` under `alias` (`pe`). Dismissed-ness is
 * read from `dismissedColumn` (the event's own flag, or the resource event's in List).
 */
export function filterConditions(q: EventQuery, alias: string, dismissedColumn: SQL): SQL[] {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const out: SQL[] = [];
  if (q.types.length > 0 || q.includeDismissedType) {
    const parts: SQL[] = [];
    if (q.types.length > 0)
      parts.push(
        sql`${col("type")} in (${sql.join(
          q.types.map((t) => sql`${t}`),
          sql`, `,
        )})`,
      );
    if (q.includeDismissedType) parts.push(sql`${dismissedColumn} = true`);
    out.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  if (q.resourceName) {
    const pattern = `%${escapeLike(q.resourceName)}%`;
    out.push(
      sql`(${col("resource_name")} ilike ${pattern} or ${col("resource_external_id")} ilike ${pattern})`,
    );
  }
  if (q.resourceTypes.length > 0)
    out.push(
      sql`${col("resource_native_type")} in (${sql.join(
        q.resourceTypes.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (q.policyNames.length > 0)
    out.push(
      sql`${col("deployment_name")} in (${sql.join(
        q.policyNames.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  if (q.scopes.length > 0 || q.scopePrefixes.length > 0) {
    const parts: SQL[] = [];
    if (q.scopes.length > 0)
      parts.push(
        sql`lower(${col("resource_scope")}) in (${sql.join(
          q.scopes.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    for (const prefix of q.scopePrefixes)
      parts.push(sql`lower(${col("resource_external_id")}) like ${`${escapeLike(prefix)}/%`}`);
    out.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  if (q.users.length > 0) {
    const list = sql.join(
      q.users.map((u) => sql`${u}`),
      sql`, `,
    );
    out.push(sql`(${col("user_identifier")} in (${list}) or ${col("user_name")} in (${list}))`);
  }
  if (q.policyId) out.push(sql`${col("bundle_id")} = ${q.policyId}`);
  if (q.start) out.push(sql`${col("occurred_at")} >= ${q.start.toISOString()}`);
  if (q.end) out.push(sql`${col("occurred_at")} < ${q.end.toISOString()}`);
  if (q.isDismissed !== undefined) out.push(sql`${dismissedColumn} = ${q.isDismissed}`);
  if (q.archived !== undefined) out.push(sql`${col("archived")} = ${q.archived}`);
  if (q.providers.length > 0)
    out.push(
      sql`${col("cloud_provider")} in (${sql.join(
        q.providers.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
  return out;
}

/** Sort column of an order; ties are broken by id so that keyset pages neither skip nor repeat. */
export function sortColumn(
  orderBy: EventOrderBy,
  alias: string,
  timeColumn: string,
): { expr: SQL; kind: "time" | "text" } {
  switch (orderBy) {
    case EventOrderBy.RESOURCE_NAME:
      return { expr: sql.raw(`coalesce(${alias}.resource_name, '')`), kind: "text" };
    case EventOrderBy.POLICY_NAME:
      return { expr: sql.raw(`coalesce(${alias}.deployment_name, '')`), kind: "text" };
    case EventOrderBy.TYPE:
      return { expr: sql.raw(`${alias}.type`), kind: "text" };
    default:
      return { expr: sql.raw(timeColumn), kind: "time" };
  }
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

/** `(sort, id)` strictly after (or before) the keyset in the list's direction. */
export function keysetCondition(
  sort: { expr: SQL; kind: "time" | "text" },
  idColumn: SQL,
  keyset: Keyset,
  descending: boolean,
): SQL {
  const value = sort.kind === "time" ? sql`${keyset.value}::timestamptz` : sql`${keyset.value}`;
  return descending
    ? sql`(${sort.expr}, ${idColumn}) < (${value}, ${keyset.id})`
    : sql`(${sort.expr}, ${idColumn}) > (${value}, ${keyset.id})`;
}
