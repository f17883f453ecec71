import { LoaderIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RpcError } from "@/lib/rpc-error";
import { sendRequesterCode, signInRequester } from "../api/requester-rpc";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
const MAX_EMAIL_LENGTH = 254;
const RESEND_AFTER_SECONDS = 30;

function emailProblem(email: string): string | undefined {
  const value = email.trim();
  if (!value) return "Enter your work e-mail address";
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL.test(value)) return `"${value}" is not a valid email`;
  return undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof RpcError) {
    if (error.code === "unavailable" || error.code === "deadline_exceeded") {
      return "Palisade could not be reached. Check your connection and try again.";
    }
    return error.message;
  }
  return "Something went wrong. Try again.";
}

/**
 * Asks a signed-out engineer for their work e-mail, e-mails them a code and signs them in with
 * it; the page then sends the waiver request as the form stands.
 */
export function RequesterSignInDialog({
  policyKey,
  onSignedIn,
  onSignInElsewhere,
  onClose,
}: {
  policyKey: string;
  /** Called once signed in; the request is sent from there. */
  /** Told the address the visitor signed in with. */
  onSignedIn: (email: string) => Promise<void>;
  /** The sign-in page, for members whose address is not in a requester domain. */
  onSignInElsewhere: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [step, setStep] = useState<"email" | "code">("email");
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<{ text: string; whomToAsk: boolean } | null>(null);
  const [resendIn, setResendIn] = useState(0);
  const problem = touched ? emailProblem(email) : undefined;

  useEffect(() => {
    if (resendIn <= 0) return;
    const timer = setTimeout(() => setResendIn((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendIn]);

  async function sendCode() {
    setTouched(true);
    if (emailProblem(email)) return;
    setPending(true);
    setRefusal(null);
    try {
      await sendRequesterCode(email.trim(), policyKey);
      setStep("code");
      setCode("");
      setResendIn(RESEND_AFTER_SECONDS);
    } catch (error) {
      setRefusal({
        text: messageOf(error),
        whomToAsk: error instanceof RpcError && error.code === "permission_denied",
      });
    } finally {
      setPending(false);
    }
  }

  async function verify() {
    if (!/^\d{6}$/.test(code.trim())) {
      setRefusal({ text: "Enter the 6-digit code from the e-mail.", whomToAsk: false });
      return;
    }
    setPending(true);
    setRefusal(null);
    try {
      await signInRequester(email.trim(), policyKey, code.trim());
    } catch (error) {
      setRefusal({ text: messageOf(error), whomToAsk: false });
      setPending(false);
      return;
    }
    try {
      await onSignedIn(email.trim());
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open onOpenChange={(next) => !next && !pending && onClose()}>
      <DialogContent>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void (step === "email" ? sendCode() : verify());
          }}
        >
          <DialogHeader>
            <DialogTitle>{step === "email" ? "Confirm your work e-mail" : "Enter the code"}</DialogTitle>
            <DialogDescription>
              {step === "email"
                ? "We e-mail you a one-time code. Once you enter it, your request is sent as you filled it in."
                : `We sent a 6-digit code to ${email.trim()}. It is valid for 10 minutes.`}
            </DialogDescription>
          </DialogHeader>
          {step === "email" ? (
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-email`}>Work e-mail</Label>
              <Input
                id={`${id}-email`}
                type="email"
                autoComplete="email"
                maxLength={MAX_EMAIL_LENGTH}
                value={email}
                aria-invalid={!!problem}
                onChange={(event) => setEmail(event.target.value)}
                onBlur={() => setTouched(true)}
              />
              {problem && <p className="text-sm text-destructive">{problem}</p>}
            </div>
          ) : (
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-code`}>Code</Label>
              <Input
                id={`${id}-code`}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, ""))}
              />
              <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <button
                  type="button"
                  className="text-primary underline-offset-4 hover:underline disabled:text-muted-foreground disabled:no-underline"
                  disabled={resendIn > 0 || pending}
                  onClick={() => void sendCode()}
                >
                  {resendIn > 0 ? `Send a new code in ${resendIn} s` : "Send a new code"}
                </button>
                <button
                  type="button"
                  className="text-primary underline-offset-4 hover:underline"
                  onClick={() => {
                    setStep("email");
                    setRefusal(null);
                  }}
                >
                  Use another address
                </button>
              </div>
            </div>
          )}
          {refusal && (
            <div role="alert" className="space-y-2 text-sm text-destructive">
              <p>{refusal.text}</p>
              {refusal.whomToAsk && (
                <Button type="button" variant="outline" size="sm" onClick={onSignInElsewhere}>
                  Sign in with an account
                </Button>
              )}
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending && <LoaderIcon className="animate-spin" />}
              {step === "email" ? "E-mail me a code" : "Verify and submit"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
