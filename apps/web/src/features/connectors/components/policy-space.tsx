import { ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type {
  PolicyTypeSpace,
  TargetPolicySpace,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { policySpaceQuery } from "../api/connector-queries";
import { POLICY_TYPES } from "../forms/policy-limits-form";

const SCOPE_LABEL: Partial<Record<ScopeType, string>> = {
  [ScopeType.AWS_ORGANIZATION_ROOT]: "Root",
  [ScopeType.AWS_OU]: "OU",
  [ScopeType.AWS_ACCOUNT]: "Account",
};
const n = (value: number) => value.toLocaleString("en");

function Meter({ used, total, label }: { used: number; total: number; label: string }) {
  return (
    <meter
      aria-label={label}
      min={0}
      max={Math.max(total, 1)}
      high={Math.max(total, 1) * 0.9}
      value={Math.min(used, Math.max(total, 1))}
      className="block h-2 w-full"
    />
  );
}

function TypeLine({ space, target }: { space: PolicyTypeSpace; target: string }) {
  const label = POLICY_TYPES.find((t) => t.type === space.type)?.label ?? "Policies";
  return (
    <li className="space-y-1" data-testid="policy-space-type">
      <div className="flex flex-wrap justify-between gap-x-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground">
          {n(space.attached)} of {n(space.maxPerTarget)} policies ({n(space.palisadePolicies)} Palisade's)
        </span>
      </div>
      <Meter used={space.attached} total={space.maxPerTarget} label={`${label} on ${target}: policies`} />
      <p className="text-xs text-muted-foreground">
        {n(space.charactersUsed)} of {n(space.charactersAvailable)} characters ({n(space.maxCharacters)} per
        policy)
      </p>
      <Meter
        used={space.charactersUsed}
        total={space.charactersAvailable}
        label={`${label} on ${target}: characters`}
      />
    </li>
  );
}

function TargetSpace({ target }: { target: TargetPolicySpace }) {
  // Types with nothing attached and nothing of Palisade's are left out, unless none has anything.
  const shown = target.types.filter((t) => t.attached > 0 || t.palisadePolicies > 0);
  return (
    <li className="space-y-2 rounded-md border p-3" data-testid="policy-space-target">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium break-all">{target.targetName}</span>
        <span className="text-xs text-muted-foreground">
          {SCOPE_LABEL[target.targetType] ?? "Target"} {target.targetId}
        </span>
      </div>
      {target.error ? (
        <p className="text-sm text-destructive">{target.error}</p>
      ) : (
        <ul className="space-y-3">
          {(shown.length > 0 ? shown : target.types).map((space) => (
            <TypeLine key={space.type} space={space} target={target.targetName} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Per target where Palisade deploys, the policies and characters it uses of the connector's quotas. */
export function PolicySpace({ connectorId }: { connectorId: string }) {
  const [page, setPage] = useState(1);
  const space = useQuery(policySpaceQuery(connectorId, page));
  const totalPages =
    space.data?.pagination?.position.case === "totalPages" ? space.data.pagination.position.value : 1;
  return (
    <section aria-label="Space used per target" className="space-y-2">
      <h3 className="text-sm font-medium">Space used per target</h3>
      {space.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : space.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {String(space.error.message)}
        </p>
      ) : space.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No guardrail is deployed through this connector yet.</p>
      ) : (
        <>
          <ul className="space-y-2">
            {space.data.items.map((target) => (
              <TargetSpace key={target.targetId} target={target} />
            ))}
          </ul>
          {totalPages > 1 && (
            <div className="flex items-center justify-end gap-2 text-sm">
              <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <span>
                {page} / {totalPages}
              </span>
              <Button
                size="sm"
                variant="outline"
                disabled={page >= totalPages}
                onClick={() => setPage(page + 1)}
              >
                Next
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
