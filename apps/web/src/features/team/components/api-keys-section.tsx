import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ApiKey } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { useQuery } from "@tanstack/react-query";
import { Trash2Icon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/date-time";
import { roleLabel } from "@/lib/role-label";
import { apiKeysQuery, useRevokeApiKey } from "../api/team-queries";
import { teamErrorText } from "../team-errors";
import { ConfirmTeamChange } from "./confirm-dialog";
import { CreateApiKeyDialog } from "./create-api-key-dialog";

function RevokeApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmTeamChange
      target={apiKey}
      title={`Revoke the API key “${apiKey?.name}”?`}
      description="Every integration that uses this key is refused from now on. Create a new key to give access back."
      confirmLabel="Revoke key"
      pending={revoke.isPending}
      change={(apiKey) => revoke.mutateAsync({ id: apiKey.id })}
      onClose={onClose}
    />
  );
}

export function ApiKeysSection({ canWrite }: { canWrite: boolean }) {
  const { data, isPending, error } = useQuery(apiKeysQuery());
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <Card className="min-w-0">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="space-y-1.5">
          <CardTitle>API keys</CardTitle>
          <CardDescription>
            Integrations call Palisade with a key, as a member with the key's role.
          </CardDescription>
        </div>
        {canWrite && <CreateApiKeyDialog />}
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {teamErrorText(error)}
          </p>
        ) : !data || data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No API keys.</p>
        ) : (
          <Table aria-label="API keys" stackOnPhone>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Prefix</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Expires</TableHead>
                {canWrite && <TableHead className="sr-only">Actions</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.items.map((key) => (
                <TableRow key={key.id}>
                  <TableCell label="Name" className="font-medium whitespace-nowrap">
                    {key.name}
                  </TableCell>
                  <TableCell label="Role" className="whitespace-nowrap">
                    {roleLabel(key.role)}
                  </TableCell>
                  <TableCell label="Prefix">
                    <code className="text-xs whitespace-nowrap">{key.start}…</code>
                  </TableCell>
                  <TableCell label="Created" className="whitespace-nowrap">
                    {key.createdAt ? formatDateTime(timestampDate(key.createdAt)) : "—"}
                  </TableCell>
                  <TableCell label="Last used" className="whitespace-nowrap">
                    {key.lastUsedAt ? formatDateTime(timestampDate(key.lastUsedAt)) : "Never"}
                  </TableCell>
                  <TableCell label="Expires" className="whitespace-nowrap">
                    {key.expiresAt ? formatDateTime(timestampDate(key.expiresAt)) : "Never"}
                  </TableCell>
                  {canWrite && (
                    <TableCell label="Actions" className="text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Revoke the API key ${key.name}`}
                        onClick={() => setRevoking(key)}
                      >
                        <Trash2Icon />
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}
