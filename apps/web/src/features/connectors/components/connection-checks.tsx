import type {
  ConnectorCheck,
  PolicyTypeStatus,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { CheckCircle2Icon, CircleDashedIcon, XCircleIcon } from "lucide-react";
import { POLICY_TYPES } from "../forms/policy-limits-form";

/** The steps of a connection test, each with what to do when it failed. */
export function ConnectionChecks({ checks }: { checks: ConnectorCheck[] }) {
  return (
    <ul className="space-y-3" aria-label="Connection checks">
      {checks.map((check) => (
        <li key={check.name} className="flex gap-3">
          {check.ok ? (
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-label="passed" />
          ) : (
            <XCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-label="failed" />
          )}
          <div className="space-y-0.5">
            <p className="text-sm font-medium">{check.name}</p>
            <p className="text-sm text-muted-foreground">{check.message}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The organisation's policy types: enabled, or what is missing and the command that enables it. */
export function PolicyTypeStatuses({ types }: { types: PolicyTypeStatus[] }) {
  if (types.length === 0) return null;
  return (
    <ul className="space-y-3" aria-label="Policy types">
      {types.map((t) => (
        <li key={t.type} className="flex gap-3" data-testid="policy-type-status">
          {t.enabled ? (
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-label="enabled" />
          ) : (
            <CircleDashedIcon
              className="mt-0.5 size-4 shrink-0 text-muted-foreground"
              aria-label="not enabled"
            />
          )}
          <div className="min-w-0 space-y-0.5">
            <p className="text-sm font-medium">
              {POLICY_TYPES.find((p) => p.type === t.type)?.label ?? "Policy type"}:{" "}
              {t.status.toLowerCase().replaceAll("_", " ")}
            </p>
            {t.remedy && <p className="text-sm break-words text-muted-foreground">{t.remedy}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}
