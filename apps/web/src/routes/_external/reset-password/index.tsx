import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { ResetPasswordPage } from "@/features/auth/components/reset-password-page";

// A token longer than any issued reads as an unusable link.
const resetSearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.maxLength(256))), undefined),
});

export const Route = createFileRoute("/_external/reset-password/")({
  validateSearch: resetSearchSchema,
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { token } = Route.useSearch();
  return <ResetPasswordPage token={token ?? ""} />;
}
