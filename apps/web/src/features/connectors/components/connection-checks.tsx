import type { ConnectorCheck } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { CheckCircle2Icon, XCircleIcon } from "lucide-react";

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
