import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { rowsOf } from "../event/event-api";

/** The kinds of scope a waiver may be narrowed to. */
const WAIVABLE_TYPES = ["AWS_ACCOUNT", "AZURE_SUBSCRIPTION", "AZURE_RESOURCE_GROUP"];

export interface WaiverScopeRow {
  externalId: string;
  name: string;
  type: string;
  parentName: string;
}

/**
 * The accounts, subscriptions and resource groups at or under the given scopes in the tenant's
 * connected hierarchy, by name. A deployment scope the hierarchy does not (yet) know is listed
 * under its id, so a waiver can always name it.
 */
export async function listWaiverScopes(
  db: Database,
  tenantId: string,
  roots: { externalId: string; type: string }[],
  query: { search?: string; limit: number; offset: number; types?: string[] },
): Promise<{ rows: WaiverScopeRow[]; total: number }> {
  if (roots.length === 0) return { rows: [], total: 0 };
  const waivable = WAIVABLE_TYPES.filter((t) => !query.types || query.types.includes(t));
  const rootIds = roots.map((r) => r.externalId.toLowerCase());
  const extra = roots.filter((r) => waivable.includes(r.type));
  const search = query.search ? `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const known = sql`
    with recursive tree(external_id, name, type, parent_external_id, depth) as (
      select external_id, name, type, parent_external_id, 0 from hierarchy_nodes
      where tenant_id = ${tenantId} and lower(external_id) in (${sql.join(
        rootIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      union
      select h.external_id, h.name, h.type, h.parent_external_id, tree.depth + 1
      from hierarchy_nodes h join tree on lower(h.parent_external_id) = lower(tree.external_id)
      where h.tenant_id = ${tenantId} and tree.depth < 12
    ),
    found as (
      select distinct on (lower(tree.external_id)) tree.external_id, tree.name, tree.type,
        coalesce((select p.name from hierarchy_nodes p
          where p.tenant_id = ${tenantId} and lower(p.external_id) = lower(tree.parent_external_id) limit 1), '') as parent_name
      from tree where tree.type in (${sql.join(
        waivable.map((t) => sql`${t}`),
        sql`, `,
      )})
      order by lower(tree.external_id)
    ),
    listed as (
      select external_id, name, type, parent_name from found
      ${
        extra.length > 0
          ? sql`union all select v.external_id, v.external_id, v.type, '' from (values ${sql.join(
              extra.map((r) => sql`(${r.externalId}, ${r.type})`),
              sql`, `,
            )}) as v(external_id, type)
            where not exists (select 1 from found f where lower(f.external_id) = lower(v.external_id))`
          : sql``
      }
    )`;
  const matches: SQL = search
    ? sql`where lower(name) like ${search} escape '\\' or lower(external_id) like ${search} escape '\\'`
    : sql``;
  const [count] = rowsOf<{ n: number }>(
    await db.execute(sql`${known} select count(*)::int as n from listed ${matches}`),
  );
  const rows = rowsOf<{ external_id: string; name: string; type: string; parent_name: string }>(
    await db.execute(sql`${known} select external_id, name, type, parent_name from listed ${matches}
      order by lower(name), lower(external_id) limit ${query.limit} offset ${query.offset}`),
  );
  return {
    rows: rows.map((r) => ({
      externalId: r.external_id,
      name: r.name,
      type: r.type,
      parentName: r.parent_name,
    })),
    total: Number(count?.n ?? 0),
  };
}
