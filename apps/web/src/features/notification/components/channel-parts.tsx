import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { LastDelivery } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { formatDateTime } from "@/lib/date-time";
import { deliveryLabel } from "../delivery-label";

export function Toggle({
  id,
  label,
  description,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-primary"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        {description && <p className="text-xs text-muted-foreground">{description}</p>}
      </div>
    </div>
  );
}

export function SecretField({
  id,
  label,
  value,
  placeholder,
  help,
  onChange,
  type = "password",
}: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  help?: ReactNode;
  onChange: (value: string) => void;
  type?: "password" | "url";
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        autoComplete="off"
        spellCheck={false}
        maxLength={500}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
      {help && <p className="text-xs text-muted-foreground">{help}</p>}
    </div>
  );
}

/** The outcome of the channel's latest notification. */
export function LastDeliveryLine({ delivery }: { delivery: LastDelivery | undefined }) {
  const label = deliveryLabel(delivery);
  return (
    <div className="space-y-1 text-sm" data-testid="last-delivery">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-muted-foreground">Last notification:</span>
        <Badge variant={label.tone}>{label.text}</Badge>
        {delivery?.subject && <span className="text-muted-foreground">{delivery.subject}</span>}
        {delivery?.at && (
          <span className="text-muted-foreground">{formatDateTime(timestampDate(delivery.at))}</span>
        )}
      </div>
      {label.hint && <p className="break-words text-xs text-muted-foreground">{label.hint}</p>}
    </div>
  );
}

export function CopyLine({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 space-y-1">
      <p className="text-xs font-medium">{label}</p>
      <code className="block break-all rounded bg-muted px-2 py-1 text-xs">{value}</code>
    </div>
  );
}
