import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import { LoaderIcon } from "lucide-react";
import { Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Slider } from "@/components/ui/slider";
import { Textarea } from "@/components/ui/textarea";
import { preloadableLazy } from "@/lib/preloadable-lazy";
import { RpcError } from "@/lib/rpc-error";
import { cn } from "@/lib/utils";
import { useBundleByKey } from "../api/waiver-request-queries";
import { resolvePolicyKey } from "../api/waiver-rpc";
import {
  type DenyMessageScope,
  denyMessageExcerpt,
  readKeyField,
  scopeInDenyMessage,
} from "../forms/pasted-deny-message";
import type { WaiverRequestForm as FormState } from "../forms/use-waiver-request-form";
import {
  characterCount,
  commentMaxLength,
  durationHours,
  hoursLabel,
  type WaiverRequestValues,
} from "../forms/waiver-request-schema";

// Shown once the key is found, so it is not part of the page's first load.
const WaiverScopePicker = preloadableLazy(() =>
  import("./waiver-scope-picker").then((m) => m.WaiverScopePicker),
);

/**
 * Starts loading the scope picker, which a found key shows. Resolves once it is here (a failed
 * load too: the form then loads it itself).
 */
export function preloadScopePicker(): Promise<void> {
  return WaiverScopePicker.preloaded();
}

type DenyMessageLookup = "idle" | "resolving" | "not-found" | "failed";

/**
 * A pasted AWS deny names the SCP, not the key: the server maps it to the key. Only the latest
 * paste may set the field.
 */
function useDenyMessageResolver(setKey: (key: string) => void) {
  const [status, setStatus] = useState<DenyMessageLookup>("idle");
  const latest = useRef<AbortController | null>(null);
  return {
    status,
    cancel() {
      latest.current?.abort();
      latest.current = null;
      setStatus("idle");
    },
    async resolve(text: string) {
      latest.current?.abort();
      const controller = new AbortController();
      latest.current = controller;
      setStatus("resolving");
      try {
        const { key } = await resolvePolicyKey(denyMessageExcerpt(text), controller.signal);
        if (latest.current !== controller) return;
        if (key) {
          setKey(key);
          setStatus("idle");
        } else setStatus("not-found");
      } catch (error) {
        if (latest.current !== controller) return;
        setStatus(error instanceof RpcError && error.code === "not_found" ? "not-found" : "failed");
      }
    },
  };
}

const denyMessageHints: Record<DenyMessageLookup, string | null> = {
  idle: null,
  resolving: "Finding the policy key in the pasted deny message...",
  "not-found": "No policy key was found in the pasted deny message. Enter the key by hand.",
  failed:
    "The pasted deny message could not be checked. Please check your internet connection and try again.",
};

export function WaiverRequestForm({
  form,
  onSubmit,
  signedIn,
  debouncedKey,
  onScopeLabel,
}: {
  form: FormState;
  onSubmit: (values: WaiverRequestValues) => Promise<void>;
  signedIn: boolean;
  /** The key as the policy card looked it up. */
  debouncedKey: string;
  /** The chosen scope's name, for the page that follows a submit. */
  onScopeLabel: (label: string) => void;
}) {
  const id = useId();
  const { values, errors, touched, submitting, isValid } = form;
  const keyError = touched.policyKey ? errors.policyKey : undefined;
  const commentLength = characterCount(values.comment);
  const { setValue } = form;
  const setKey = (key: string) => {
    // A waiver's scope belongs to its key's policy: another key starts from every scope again.
    if (key.trim().toUpperCase() !== values.policyKey.trim().toUpperCase()) {
      setValue("scope", "");
      onScopeLabel("");
    }
    setValue("policyKey", key);
  };
  const denyMessage = useDenyMessageResolver(setKey);
  const denyMessageHint = denyMessageHints[denyMessage.status];
  // The account or subscription a pasted deny message names, chosen as the scope when it is one.
  const [scopeHint, setScopeHint] = useState<DenyMessageScope | null>(null);
  const lookupKey =
    debouncedKey.trim() === values.policyKey.trim() && debouncedKey.trim().length === POLICY_KEY_LENGTH
      ? debouncedKey.trim()
      : "";
  const bundle = useBundleByKey(lookupKey);
  // A declarative policy has no conditions: its waiver exempts one whole account, which must be chosen.
  const wholeAccount = bundle.data?.waiverExemptsWholeAccount === true;
  const accountMissing = wholeAccount && values.scope === "";
  // A typed key: the picker's code arrives while the key is looked up.
  useEffect(() => {
    if (lookupKey !== "") void preloadScopePicker();
  }, [lookupKey]);
  const chooseScope = useCallback(
    (scope: { id: string; label: string }) => {
      setValue("scope", scope.id);
      onScopeLabel(scope.label);
    },
    [setValue, onScopeLabel],
  );

  function changeKey(value: string) {
    const field = readKeyField(value);
    setScopeHint(field.kind === "typed" ? null : scopeInDenyMessage(value));
    if (field.kind === "resolve") {
      setKey("");
      void denyMessage.resolve(field.text);
      return;
    }
    denyMessage.cancel();
    setKey(field.kind === "key" ? field.key : value);
  }
  const commentError = touched.comment ? errors.comment : undefined;

  return (
    <Card>
      <CardContent className="pt-6">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void form.submit(onSubmit);
          }}
          noValidate
          className="space-y-6"
        >
          <div className="space-y-2">
            <Label htmlFor={`${id}-key`}>Policy Key</Label>
            <Input
              id={`${id}-key`}
              name="policyKey"
              autoComplete="off"
              spellCheck={false}
              className="font-mono tracking-widest uppercase placeholder:normal-case placeholder:tracking-normal"
              placeholder="e.g. K7QX2MD"
              value={values.policyKey}
              onChange={(event) => changeKey(event.target.value)}
              onBlur={() => form.touch("policyKey")}
              aria-invalid={!!keyError}
              aria-describedby={`${id}-key-help ${id}-key-paste ${id}-key-error`}
            />
            <p id={`${id}-key-help`} className="text-sm text-muted-foreground">
              Enter the 7 character key you received in the deny message here.
            </p>
            {denyMessageHint && (
              <p
                id={`${id}-key-paste`}
                role="status"
                className={cn(
                  "text-sm",
                  denyMessage.status === "resolving" ? "text-muted-foreground" : "text-destructive",
                )}
              >
                {denyMessageHint}
              </p>
            )}
            {keyError && (
              <p id={`${id}-key-error`} className="text-sm text-destructive">
                {keyError}
              </p>
            )}
          </div>
          {lookupKey !== "" && bundle.data?.key && (
            <Suspense fallback={null}>
              <WaiverScopePicker
                policyKey={lookupKey}
                hint={scopeHint}
                value={values.scope}
                onChange={chooseScope}
                wholeAccount={wholeAccount}
              />
            </Suspense>
          )}
          <div className="space-y-3">
            <Label htmlFor={`${id}-duration`}>Waiver Duration: {hoursLabel(values.duration)}</Label>
            <Slider
              id={`${id}-duration`}
              name="duration"
              min={durationHours.min}
              max={durationHours.max}
              step={durationHours.step}
              value={values.duration}
              onValueChange={(hours) => form.setValue("duration", hours)}
              aria-valuetext={hoursLabel(values.duration)}
            />
            <div className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
              <span>{hoursLabel(durationHours.min)}</span>
              <span>{hoursLabel(durationHours.max)}</span>
            </div>
            <p className="text-xs text-muted-foreground">
              On AWS, waivers end on the hour (those longer than a day at 00, 06, 12 or 18 UTC) so more of
              them fit in the policy.
            </p>
          </div>
          <div className="space-y-2">
            <div className="flex items-baseline justify-between gap-2">
              <Label htmlFor={`${id}-comment`}>Waiver Reason</Label>
              <span
                className={cn(
                  "text-xs tabular-nums",
                  commentLength > commentMaxLength ? "text-destructive" : "text-muted-foreground",
                )}
                aria-live="polite"
                data-testid="comment-counter"
              >
                {commentLength}/{commentMaxLength}
              </span>
            </div>
            <Textarea
              id={`${id}-comment`}
              name="comment"
              rows={10}
              placeholder="Tell the reviewers what they need to know: who requested the waiver, why the action is needed, and any ticket or change number."
              value={values.comment}
              onChange={(event) => form.setValue("comment", event.target.value)}
              onBlur={() => form.touch("comment")}
              aria-invalid={!!commentError}
              aria-describedby={`${id}-comment-error`}
            />
            {commentError && (
              <p id={`${id}-comment-error`} className="text-sm text-destructive">
                {commentError}
              </p>
            )}
          </div>
          <Button
            type="submit"
            className="w-full sm:w-auto"
            disabled={submitting || !isValid || accountMissing}
          >
            {submitting && <LoaderIcon className="animate-spin" />}
            {submitting ? "Submitting..." : "Submit"}
          </Button>
          {!signedIn && (
            <p className="text-sm text-muted-foreground">
              You will be asked for your work e-mail and a code we send there before the request is sent; the
              form is kept as it is.
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
