import { createFileRoute } from "@tanstack/react-router";
import { ChatDecisionPage } from "@/features/notification/components/chat-decision-page";
import { chatDecideSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/chat/decide")({
  validateSearch: chatDecideSearchSchema,
  component: ChatDecideRoute,
});

function ChatDecideRoute() {
  const { token } = Route.useSearch();
  return <ChatDecisionPage token={token} />;
}
