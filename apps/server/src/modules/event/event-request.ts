import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ExportFormat, Order, type PaginationRequest } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { type EventFilter, EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { Database } from "../../db/database";
import { callError, invalidArgument } from "../../rpc/errors";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../rpc/pagination";
import { descendants, hierarchyOf } from "./event-hierarchy";
import { findConnectorId, listConnectorIds } from "./event-lookup-repository";
import { decodeKeyset, type EventQuery, providerFilterOf, TYPE_NAMES } from "./event-query";
import { type EventRow, findEvent, type PageRequest } from "./event-repository";
import type { EventTypeName } from "./policy-event";

const MAX_TEXT = 200;
const MAX_LIST = 100;
export const MAX_ID = 128;

/** Bad input in one field, with a message that already names the field. */
export const invalidInput = (field: string, message: string) =>
  invalidArgument(message, [{ field, message }]);

export function boundedText(value: string | undefined, field: string, max = MAX_TEXT): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (text.length > max) throw invalidInput(field, `${field} must be at most ${max} characters.`);
  return text;
}

function boundedList(values: readonly string[], field: string): string[] {
  if (values.length > MAX_LIST) throw invalidInput(field, `${field} may list at most ${MAX_LIST} values.`);
  return values.map((v, i) => {
    const text = v.trim();
    if (!text) throw invalidInput(`${field}[${i}]`, `${field}[${i}] must not be empty.`);
    if (text.length > MAX_TEXT)
      throw invalidInput(`${field}[${i}]`, `${field}[${i}] must be at most ${MAX_TEXT} characters.`);
    return text;
  });
}

export function dateOf(ts: Timestamp | undefined): Date | undefined {
  return ts ? timestampDate(ts) : undefined;
}

/** A required id of at most MAX_ID characters. */
export function requiredId(value: string | undefined, field: string): string {
  const id = boundedText(value, field, MAX_ID);
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
  const scopes = boundedList(f?.scope ?? [], "filter.scope");
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
    resourceName: boundedText(f?.resourceName, "filter.resource_name"),
    resourceTypes: boundedList(f?.resourceType ?? [], "filter.resource_type"),
    policyNames: boundedList(f?.policyName ?? [], "filter.policy_name"),
    scopes: expanded,
    scopePrefixes: scopes.filter((s) => s.startsWith("/")).map((s) => s.toLowerCase().replace(/\/+$/, "")),
    users: boundedList(f?.user ?? [], "filter.user"),
    policyId: boundedText(f?.policyId, "filter.policy_id", MAX_ID),
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
  if (limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalidInput("pagination.limit", `pagination.limit must be 1 to ${MAX_PAGE_SIZE}.`);
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
  if (trimmed.length > MAX_ID) throw invalidInput("id", `id must be at most ${MAX_ID} characters.`);
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
  const id = boundedText(connectorId, "connector_id", MAX_ID);
  if (!id) throw invalidInput("connector_id", "connector_id must not be empty.");
  const found = await findConnectorId(db, tenantId, id);
  if (!found) throw callError(Code.NotFound, "No such connector in this tenant.");
  return [found];
}

const MAX_DISMISS_REASON = 500;

/** The reason given for dismissing an event, trimmed; refused when longer than 500 characters. */
export function dismissReason(raw: string): string {
  const reason = raw.trim();
  if (reason.length > MAX_DISMISS_REASON) {
    const message = `The reason must be at most ${MAX_DISMISS_REASON} characters.`;
    throw invalidArgument(message, [{ field: "reason", message }]);
  }
  return reason;
}
