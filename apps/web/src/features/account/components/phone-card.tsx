import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { PhoneChannelField, PhoneCodeField, PhoneNumberField } from "@/components/phone-code-fields";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { retryAfterCapture } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";
import { type PhoneChannel, phoneCodeFailureText, phoneNumberError } from "@/lib/phone-number";

const phoneKey = ["account", "phone-number"] as const;

/** The confirmed number of the signed-in user, or null. */
function usePhoneNumber() {
  return useQuery({
    queryKey: phoneKey,
    queryFn: async () => {
      const { data } = await authMethodsClient.getSession();
      const current = data?.user as
        | { phoneNumber?: string | null; phoneNumberVerified?: boolean }
        | undefined;
      return current?.phoneNumberVerified && current.phoneNumber ? current.phoneNumber : null;
    },
  });
}

/** Adds, replaces or removes the phone number that can receive sign-in codes. */
export function PhoneCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const { data: current, isPending } = usePhoneNumber();
  const [phone, setPhone] = useState("");
  const [channel, setChannel] = useState<PhoneChannel>("sms");
  const [code, setCode] = useState("");
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const invalid = phone ? phoneNumberError(phone) : null;

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!phone || invalid) return;
    setResult(null);
    setPending(true);
    const capture = retryAfterCapture();
    const { error } = await authMethodsClient.phoneNumber.sendOtp({
      phoneNumber: phone,
      fetchOptions: { ...capture.fetchOptions, query: { channel } },
    });
    setPending(false);
    if (error) return setResult({ ok: false, text: phoneCodeFailureText(error, capture.seconds()) });
    setSent(true);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setPending(true);
    const { error } = await authMethodsClient.phoneNumber.verify({
      phoneNumber: phone,
      code: code.trim(),
      updatePhoneNumber: true,
    });
    setPending(false);
    if (error) return setResult({ ok: false, text: phoneCodeFailureText(error) });
    setResult({ ok: true, text: `${phone} is confirmed. You can now sign in with a code sent to it.` });
    setSent(false);
    setPhone("");
    setCode("");
    await queryClient.invalidateQueries({ queryKey: phoneKey });
  };

  const remove = async () => {
    setResult(null);
    const { error } = await authMethodsClient.updateUser({ phoneNumber: null } as never);
    setConfirmingRemove(false);
    if (error) return setResult({ ok: false, text: phoneCodeFailureText(error) });
    setResult({ ok: true, text: "Phone number removed. Codes are no longer sent to it." });
    await queryClient.invalidateQueries({ queryKey: phoneKey });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Phone number</CardTitle>
        <CardDescription>
          Sign in with a code sent by text message, voice call or WhatsApp to a number you confirmed here.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending ? (
          <Skeleton className="h-9 w-full" />
        ) : current ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p className="flex-1">
              Confirmed number: <span className="font-medium">{current}</span>
            </p>
            <Button size="sm" variant="outline" onClick={() => setConfirmingRemove(true)}>
              Remove number
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No phone number yet.</p>
        )}
        {result && (
          <p
            role={result.ok ? "status" : "alert"}
            className={result.ok ? "text-sm" : "text-sm text-destructive"}
          >
            {result.text}
          </p>
        )}
        <form onSubmit={sent ? confirm : sendCode} noValidate className="space-y-3">
          <PhoneNumberField
            id={id}
            label={current ? "New phone number" : "Phone number"}
            phone={phone}
            invalid={invalid}
            disabled={sent}
            onChange={setPhone}
          />
          {sent ? (
            <PhoneCodeField id={id} label={`Code sent to ${phone}`} code={code} onChange={setCode} />
          ) : (
            <PhoneChannelField id={id} channel={channel} onChange={setChannel} />
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending || (!sent && (!phone || !!invalid))}>
              {pending && <LoaderIcon className="animate-spin" />}
              {sent ? "Confirm the number" : "Send a code"}
            </Button>
            {sent && (
              <Button type="button" variant="ghost" onClick={() => setSent(false)}>
                Use another number
              </Button>
            )}
          </div>
        </form>
        <ConfirmDialog
          open={confirmingRemove}
          onOpenChange={setConfirmingRemove}
          title="Remove your phone number?"
          description="You can no longer sign in with a code sent to it. You can add a number again at any time."
          confirmLabel="Remove number"
          destructive
          onConfirm={() => void remove()}
        />
      </CardContent>
    </Card>
  );
}
