import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";

export function ConnectorsPage() {
  return (
    <>
      <PageHeader
        title="Connectors"
        description="Connections to your AWS organisations, Azure tenants and the sandbox cloud. Palisade reads the cloud hierarchy through them and deploys guardrails to the scopes you choose."
      />
      <EmptyState
        image="list"
        title="No connectors yet"
        description="Add an AWS, Azure or sandbox connector to see your cloud hierarchy."
      />
    </>
  );
}
