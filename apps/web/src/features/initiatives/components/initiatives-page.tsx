import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";

export function InitiativesPage() {
  return (
    <>
      <PageHeader
        title="Initiatives"
        description="Compliance frameworks such as CIS, NIST SP 800-53, PCI DSS, ISO/IEC 27001 and SOC 2, with the clauses your deployed guardrails cover and the gaps that remain."
      />
      <EmptyState
        image="list"
        title="No initiatives yet"
        description="Frameworks from the policy catalogue appear here with their coverage; open one to see which clauses are covered and which policies would close the gaps."
      />
    </>
  );
}
