import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ExportFormat, Order, type PaginationRequest } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { type EventFilter, EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { Database } from "../../db/database";
import { callError, invalidArgument } from "../../rpc/errors";
import { DEFAULT_PAGE_SIZE } from "../../rpc/pagination";
import { descendants, hierarchyOf } from "./event-hierarchy";
import { findConnectorId, listConnectorIds } from "./event-lookup-repository";
import { decodeKeyset, type EventQuery, providerFilterOf, TYPE_NAMES } from "./event-query";
import { type EventRow, findEvent, type PageRequest } from "./event-repository";
import type { EventTypeName } from "./policy-event";

// How long each text and list may be is a bound of the contract, checked before a handler runs.

/** Bad input in one field, with a message that already names the field. */
export const invalidInput = (field: string, message: string) =>
  invalidArgument(message, [{ field, message }]);

/** The text trimmed, or undefined when nothing is left. */
export function trimmedText(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

function trimmedList(values: readonly string[], field: string): string[] {
  return values.map((v, i) => {
    const text = v.trim();
    if (!text) throw invalidInput(`${field}[${i}]`, `${field}[${i}] must not be empty.`);
    return text;
  });
}

export function dateOf(ts: Timestamp | undefined): Date | undefined {
  return ts ? timestampDate(ts) : undefined;
}

/** A required id. */
export function requiredId(value: string | undefined, field: string): string {
  const id = trimmedText(value);
  if (!id) throw invalidInput(field, `${field} is required.`);
  return id;
}

/** Checks a filter and turns it into a query; scopes are expanded to the scopes below them. */
export async function parseEventFilter(
  db: Database,
  tenantId: string,
  filter: EventFilter | undefined,
): Promise<EventQuery> {
  const f = filter;
  const types: EventTypeName[] = [];
  let includeDismissedType = false;
  for (const t of f?.type ?? []) {
    const name = TYPE_NAMES[t];
    if (!name) throw invalidInput("filter.type", `filter.type: ${t} is not an event type.`);
    if (name === "DISMISSED") includeDismissedType = true;
    else if (!types.includes(name)) types.push(name);
  }
  const scopes = trimmedList(f?.scope ?? [], "filter.scope");
  let expanded: string[] = [];
  if (scopes.length > 0) {
    const view = await hierarchyOf(db, tenantId);
    expanded = [...new Set(scopes.flatMap((s) => descendants(view, s)))];
  }
  const range = f?.timeRange;
  const start = dateOf(range?.start);
  const end = dateOf(range?.end);
  if (start && end && start.getTime() > end.getTime())
    throw invalidInput("filter.time_range", "filter.time_range: start must not be after end.");
  return {
    types,
    includeDismissedType,
    resourceName: trimmedText(f?.resourceName),
    resourceTypes: trimmedList(f?.resourceType ?? [], "filter.resource_type"),
    policyNames: trimmedList(f?.policyName ?? [], "filter.policy_name"),
    scopes: expanded,
    scopePrefixes: scopes.filter((s) => s.startsWith("/")).map((s) => s.toLowerCase().replace(/\/+$/, "")),
    users: trimmedList(f?.user ?? [], "filter.user"),
    policyId: trimmedText(f?.policyId),
    start,
    end,
    isDismissed: f?.isDismissed,
    archived: f?.archived,
    providers: providerFilterOf(f?.cloudProviders ?? []),
  };
}

export type ParsedPage = PageRequest & { cursorMode: boolean; page: number };

export function parsePage(pagination: PaginationRequest | undefined, orderBy: EventOrderBy): ParsedPage {
  const limit = pagination?.limit ?? DEFAULT_PAGE_SIZE;
  if (!(orderBy in EventOrderBy)) throw invalidInput("order_by", "order_by is not a known order.");
  const descending = pagination?.order !== Order.ASCENDING;
  if (pagination?.position.case === "page") {
    const page = Math.max(1, pagination.position.value);
    return { orderBy, descending, limit, offset: (page - 1) * limit, cursorMode: false, page };
  }
  const cursor = pagination?.position.case === "cursor" ? pagination.position.value : undefined;
  const after = decodeCursor(cursor?.end);
  const before = decodeCursor(cursor?.start);
  return { orderBy, descending, limit, after, before, cursorMode: true, page: 1 };
}

function decodeCursor(text: string | undefined) {
  const keyset = decodeKeyset(text);
  if (keyset === "invalid")
    throw invalidInput("pagination.cursor", "pagination.cursor is not a cursor this list returned.");
  return keyset;
}

export function exportFormatOf(format: ExportFormat): "csv" | "json" {
  if (format === ExportFormat.JSON) return "json";
  if (format === ExportFormat.CSV || format === ExportFormat.UNSPECIFIED) return "csv";
  throw invalidInput("format", "format must be CSV or JSON.");
}

/** The event named by a request's `id`, in the caller's tenant. */
export async function existingEvent(db: Database, tenantId: string, id: string): Promise<EventRow> {
  const trimmed = id.trim();
  if (!trimmed) throw invalidInput("id", "id is required.");
  const row = await findEvent(db, tenantId, trimmed);
  if (!row) throw callError(Code.NotFound, "No such event in this tenant.");
  return row;
}

/** The connector a request names, or all of the tenant's connectors when it names none. */
export async function connectorIdsOf(
  db: Database,
  tenantId: string,
  connectorId: string | undefined,
): Promise<string[]> {
  if (connectorId === undefined) return listConnectorIds(db, tenantId);
  const id = trimmedText(connectorId);
  if (!id) throw invalidInput("connector_id", "connector_id must not be empty.");
  const found = await findConnectorId(db, tenantId, id);
  if (!found) throw callError(Code.NotFound, "No such connector in this tenant.");
  return [found];
}

/** The reason given for dismissing an event, trimmed (at most 500 characters, by the contract). */
export function dismissReason(raw: string): string {
  return raw.trim();
}
