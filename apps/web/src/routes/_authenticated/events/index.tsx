import { createFileRoute } from "@tanstack/react-router";
import { EventsPage } from "@/features/events/components/events-page";
import { eventsSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/events/")({
  validateSearch: eventsSearchSchema,
  component: EventsRoute,
});

function EventsRoute() {
  return <EventsPage search={Route.useSearch()} />;
}
