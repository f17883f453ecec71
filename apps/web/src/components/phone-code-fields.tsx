import type { ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PHONE_CHANNELS, type PhoneChannel } from "@/lib/phone-number";

/** The phone number as typed, with the spec's message when it is not `+` and 4 to 15 digits. */
export function PhoneNumberField({
  id,
  label,
  phone,
  invalid,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  phone: string;
  invalid: string | null;
  disabled: boolean;
  onChange: (phone: string) => void;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-phone`}>{label}</Label>
      <Input
        id={`${id}-phone`}
        type="tel"
        autoComplete="tel"
        placeholder="+441234567890"
        value={phone}
        disabled={disabled}
        aria-invalid={!!invalid}
        aria-describedby={invalid ? `${id}-phone-error` : undefined}
        onChange={(event) => onChange(event.target.value.trim())}
      />
      {invalid && (
        <p id={`${id}-phone-error`} className="text-sm text-destructive">
          {invalid}
        </p>
      )}
    </div>
  );
}

/** How the code travels: text message, voice call or WhatsApp. */
export function PhoneChannelField({
  id,
  channel,
  onChange,
}: {
  id: string;
  channel: PhoneChannel;
  onChange: (channel: PhoneChannel) => void;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-channel`}>Send the code by</Label>
      <select
        id={`${id}-channel`}
        className="h-9 w-full rounded-md border border-input bg-card px-2 text-sm"
        value={channel}
        onChange={(event) => onChange(event.target.value as PhoneChannel)}
      >
        {PHONE_CHANNELS.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The six-digit code that was sent, with what to say above it. */
export function PhoneCodeField({
  id,
  label,
  code,
  onChange,
  children,
}: {
  id: string;
  label: string;
  code: string;
  onChange: (code: string) => void;
  children?: ReactNode;
}) {
  return (
    <div className="space-y-2">
      {children}
      <Label htmlFor={`${id}-code`}>{label}</Label>
      <Input
        id={`${id}-code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
