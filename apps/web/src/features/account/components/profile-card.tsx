import { zodResolver } from "@hookform/resolvers/zod";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { useQueryClient } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { MAX_NAME_LENGTH } from "@/lib/account-fields";
import { authClient } from "@/lib/auth-client";
import { authFailureText } from "@/lib/auth-error";
import { invalidateMethods } from "@/lib/query-keys";
import { nameSchema } from "../forms/account-schemas";

export function ProfileCard({ name, email }: { name: string; email: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const { auth } = useRouteContext({ from: "__root__" });
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const form = useForm({ resolver: zodResolver(nameSchema), defaultValues: { name } });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setResult(null);
    const { error } = await authClient.updateUser({ name: values.name });
    if (error) {
      setResult({ ok: false, text: authFailureText(error, undefined) });
      return;
    }
    form.reset({ name: values.name });
    setResult({ ok: true, text: "Name saved." });
    // The session holds the name too (the page of someone of no tenant reads it there).
    auth.invalidate();
    await invalidateMethods(queryClient, [TenantService.method.getCurrent]);
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Profile</CardTitle>
        <CardDescription>Your name is shown to your team and on the waivers you request.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor={`${id}-email`}>E-mail</Label>
            <Input id={`${id}-email`} value={email} readOnly disabled />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input
              id={`${id}-name`}
              autoComplete="name"
              maxLength={MAX_NAME_LENGTH + 20}
              aria-invalid={!!errors.name}
              aria-describedby={errors.name ? `${id}-name-error` : undefined}
              {...form.register("name")}
            />
            {errors.name && (
              <p id={`${id}-name-error`} className="text-sm text-destructive">
                {errors.name.message}
              </p>
            )}
          </div>
          {result && (
            <p
              role={result.ok ? "status" : "alert"}
              className={result.ok ? "text-sm" : "text-sm text-destructive"}
            >
              {result.text}
            </p>
          )}
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting && <LoaderIcon className="animate-spin" />}
            Save name
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
