import { zodResolver } from "@hookform/resolvers/zod";
import { AlertCircleIcon, LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { fieldErrorsOf } from "@/lib/error-detail";
import { errorText } from "@/lib/error-text";
import { useAcceptInvitationWithNewAccount } from "../api/invitation-queries";
import { type NewAccountValues, newAccountSchema } from "../forms/new-account-schema";

const FIELDS = ["name", "password", "confirm"] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  name: "Your name",
  password: "Password",
  confirm: "Confirm password",
};

export function NewAccountForm({
  token,
  email,
  tenantName,
  onJoined,
}: {
  token: string;
  email: string;
  tenantName: string;
  onJoined: () => void;
}) {
  const id = useId();
  const accept = useAcceptInvitationWithNewAccount(token);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NewAccountValues>({
    resolver: zodResolver(newAccountSchema),
    defaultValues: { name: "", password: "", confirm: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ name, password }) => {
    setFailure(null);
    try {
      await accept.mutateAsync({ name, password });
      onJoined();
    } catch (error) {
      const fields = fieldErrorsOf(error, FIELDS);
      for (const [field, message] of Object.entries(fields?.fields ?? {})) {
        form.setError(field as (typeof FIELDS)[number], { message });
      }
      if (!fields || fields.rest.length > 0) setFailure(fields?.rest.join(" ") || errorText(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>Could not join</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-email`}>E-mail</Label>
        <Input id={`${id}-email`} type="email" autoComplete="username" value={email} readOnly disabled />
      </div>
      {FIELDS.map((field) => (
        <div key={field} className="space-y-2">
          <Label htmlFor={`${id}-${field}`}>{LABELS[field]}</Label>
          <Input
            id={`${id}-${field}`}
            type={field === "name" ? "text" : "password"}
            autoComplete={field === "name" ? "name" : "new-password"}
            autoFocus={field === "name"}
            aria-invalid={!!errors[field]}
            aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
            {...form.register(field)}
          />
          {errors[field] && (
            <p id={`${id}-${field}-error`} className="text-sm text-destructive">
              {errors[field]?.message}
            </p>
          )}
        </div>
      ))}
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting && <LoaderIcon className="animate-spin" />}
        {isSubmitting ? "Joining..." : `Join ${tenantName}`}
      </Button>
    </form>
  );
}
