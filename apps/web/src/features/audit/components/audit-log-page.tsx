import { toJson } from "@bufbuild/protobuf";
import { timestampDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { ActorType, type AuditRecord } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ChevronDownIcon, ChevronRightIcon } from "lucide-react";
import { Fragment, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { PagePagination } from "@/components/page-pagination";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/date-time";
import { errorText } from "@/lib/error-text";
import { auditListQuery } from "../api/audit-queries";
import type { AuditSearch } from "../audit-search";
import { AuditExportButton } from "./audit-export-button";
import { AuditFilters } from "./audit-filters";

const ACTOR_KINDS: Record<ActorType, string> = {
  [ActorType.UNSPECIFIED]: "",
  [ActorType.USER]: "",
  [ActorType.API_KEY]: "API key",
  [ActorType.CHAT]: "from chat",
  [ActorType.SYSTEM]: "Palisade",
  [ActorType.ANONYMOUS]: "not signed in",
};

function actorOf(record: AuditRecord): string {
  const actor = record.actor;
  if (!actor) return "—";
  const kind = ACTOR_KINDS[actor.type];
  const name = actor.name || actor.id || "Someone";
  return kind && kind !== name ? `${name} (${kind})` : name;
}

function targetOf(record: AuditRecord): string {
  const target = record.target;
  if (!target) return "—";
  const what = target.type.replace(/_/g, " ");
  return target.name ? `${what}: ${target.name}` : `${what} ${target.id}`.trim();
}

function json(value: unknown): string {
  return value === undefined || value === null ? "—" : JSON.stringify(value, null, 2);
}

function RecordDetails({ record }: { record: AuditRecord }) {
  return (
    <div className="grid gap-3 text-sm md:grid-cols-2">
      <div className="min-w-0">
        <h3 className="font-medium">Before</h3>
        <pre className="max-h-72 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap break-all">
          {json(record.before && toJson(ValueSchema, record.before))}
        </pre>
      </div>
      <div className="min-w-0">
        <h3 className="font-medium">After</h3>
        <pre className="max-h-72 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap break-all">
          {json(record.after && toJson(ValueSchema, record.after))}
        </pre>
      </div>
      <p className="text-muted-foreground md:col-span-2 break-all">
        From {record.ipAddress || "an unknown address"}
        {record.userAgent ? ` with ${record.userAgent}` : ""}
        {record.actor?.source ? `; source ${record.actor.source}` : ""}. Record {record.sequence.toString()},
        hash <code>{record.hash.slice(0, 16)}…</code>
      </p>
    </div>
  );
}

/** Settings › Audit log: who changed what in the tenant, filtered by the page's address. */
export function AuditLogPage({ search }: { search: AuditSearch }) {
  const navigate = useNavigate({ from: "/settings/audit-log" });
  const { data, isPending, error } = useQuery(auditListQuery(search));
  const [open, setOpen] = useState<string | null>(null);
  const totalPages = data?.pagination?.position.case === "totalPages" ? data.pagination.position.value : 1;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Audit log"
        description="Every change in this tenant: who made it, from where, when, and what it changed."
        actions={
          <div className="flex flex-wrap gap-2">
            <AuditExportButton search={search} format={ExportFormat.CSV} />
            <AuditExportButton search={search} format={ExportFormat.JSON_LINES} />
          </div>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <AuditFilters search={search} />
        </CardContent>
      </Card>
      <Card className="min-w-0">
        <CardContent className="pt-6">
          {isPending ? (
            <Skeleton className="h-32 w-full" />
          ) : error ? (
            <p role="alert" className="text-sm text-destructive">
              {errorText(error)}
            </p>
          ) : !data || data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">No changes match these filters.</p>
          ) : (
            <Table aria-label="Audit records" stackOnPhone>
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Actor</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Target</TableHead>
                  <TableHead className="sr-only">Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.items.map((record) => (
                  <Fragment key={record.id}>
                    <TableRow>
                      <TableCell label="When" className="whitespace-nowrap">
                        {record.occurredAt ? formatDateTime(timestampDate(record.occurredAt)) : "—"}
                      </TableCell>
                      <TableCell label="Actor">
                        {record.actor?.id ? (
                          <Link
                            to="/settings/audit-log"
                            search={{ ...search, actor: record.actor.id, page: undefined }}
                            className="underline-offset-4 hover:underline"
                            aria-label={`Only changes by ${actorOf(record)}`}
                          >
                            {actorOf(record)}
                          </Link>
                        ) : (
                          actorOf(record)
                        )}
                      </TableCell>
                      <TableCell label="Action" className="break-all">
                        {record.action}
                      </TableCell>
                      <TableCell label="Target" className="break-all">
                        {targetOf(record)}
                      </TableCell>
                      <TableCell label="Details" className="text-right">
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-expanded={open === record.id}
                          aria-label={`${open === record.id ? "Hide" : "Show"} what changed: ${record.action}`}
                          onClick={() => setOpen(open === record.id ? null : record.id)}
                        >
                          {open === record.id ? <ChevronDownIcon /> : <ChevronRightIcon />}
                          Changes
                        </Button>
                      </TableCell>
                    </TableRow>
                    {open === record.id && (
                      <TableRow>
                        <TableCell colSpan={5} label="What changed">
                          <RecordDetails record={record} />
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                ))}
              </TableBody>
            </Table>
          )}
          {totalPages > 1 && (
            <PagePagination
              page={search.page ?? 1}
              totalPages={totalPages}
              onPage={(page) => void navigate({ search: { ...search, page } })}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
