import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { EnchantedLinkPage } from "@/features/auth/components/enchanted-link-page";

// A token longer than any issued reads as an unusable link.
const enchantedLinkSearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.maxLength(128))), undefined),
});

export const Route = createFileRoute("/_external/enchanted-link/")({
  validateSearch: enchantedLinkSearchSchema,
  component: EnchantedLinkRoute,
});

function EnchantedLinkRoute() {
  const { token } = Route.useSearch();
  return <EnchantedLinkPage token={token ?? ""} />;
}
