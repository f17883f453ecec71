import { LoaderIcon, SmartphoneIcon } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { PhoneChannelField, PhoneCodeField, PhoneNumberField } from "@/components/phone-code-fields";
import { Button } from "@/components/ui/button";
import { retryAfterCapture } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";
import { type PhoneChannel, phoneCodeFailureText, phoneNumberError } from "@/lib/phone-number";
import type { IdentifierStepProps } from "./sign-in-methods";

/** Sign-in by a code sent to the phone number a user added on their account page. */
export function PhoneSignIn({ onSignedIn }: IdentifierStepProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [phone, setPhone] = useState("");
  const [channel, setChannel] = useState<PhoneChannel>("sms");
  const [code, setCode] = useState("");
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const invalid = phone ? phoneNumberError(phone) : null;

  if (!open)
    return (
      <Button type="button" variant="outline" className="w-full" onClick={() => setOpen(true)}>
        <SmartphoneIcon />
        Send a code to my phone
      </Button>
    );

  const sendCode = async () => {
    if (!phone || invalid) return;
    setFailure(null);
    setPending(true);
    const capture = retryAfterCapture();
    const { error } = await authMethodsClient.phoneNumber.sendOtp({
      phoneNumber: phone,
      fetchOptions: { ...capture.fetchOptions, query: { channel } },
    });
    setPending(false);
    if (error) return setFailure(phoneCodeFailureText(error, capture.seconds()));
    setSent(true);
  };

  const verify = async () => {
    setFailure(null);
    setPending(true);
    const { data, error } = await authMethodsClient.phoneNumber.verify({
      phoneNumber: phone,
      code: code.trim(),
    });
    setPending(false);
    if (error || !data?.user) return setFailure(phoneCodeFailureText(error ?? {}));
    await onSignedIn({ email: data.user.email ?? phone, name: data.user.name ?? phone }, "phone-otp");
  };

  const submit = () => void (sent ? verify() : sendCode());
  // The fields have no form of their own, so Enter is taken here.
  const onEnter = (event: KeyboardEvent) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    submit();
  };

  return (
    <fieldset className="space-y-3 rounded-md border p-3" onKeyDown={onEnter}>
      <legend className="sr-only">Sign in with a code sent to your phone</legend>
      <PhoneNumberField
        id={id}
        label="Phone number"
        phone={phone}
        invalid={invalid}
        disabled={sent}
        onChange={setPhone}
      />
      {sent ? (
        <PhoneCodeField id={id} label="Code" code={code} onChange={setCode}>
          <p role="status" className="text-sm text-muted-foreground">
            If {phone} belongs to a Palisade account, a code is on its way.
          </p>
        </PhoneCodeField>
      ) : (
        <PhoneChannelField id={id} channel={channel} onChange={setChannel} />
      )}
      {failure && (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      )}
      <Button
        type="button"
        className="w-full"
        disabled={pending || (!sent && (!phone || !!invalid))}
        onClick={submit}
      >
        {pending && <LoaderIcon className="animate-spin" />}
        {sent ? "Sign in with the code" : "Send the code"}
      </Button>
    </fieldset>
  );
}
