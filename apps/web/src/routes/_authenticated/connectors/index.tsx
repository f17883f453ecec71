import { createFileRoute } from "@tanstack/react-router";
import { ConnectorsPage } from "@/features/connectors/components/connectors-page";

export const Route = createFileRoute("/_authenticated/connectors/")({
  component: ConnectorsPage,
});
