import { Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Permission, usePermissions } from "@/lib/permissions";

export function PoliciesPage() {
  const permissions = usePermissions();
  const canDeploy = permissions.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT);
  return (
    <>
      <PageHeader
        title="Policies"
        description="Guardrails deployed to your clouds, their mode (prevent or alert), where they apply and how often they fired. Each has a 7-character key that appears in the deny message."
        actions={
          canDeploy && (
            <Button asChild>
              <Link to="/policies/create">
                <PlusIcon />
                Create policy
              </Link>
            </Button>
          )
        }
      />
      <Card className="overflow-hidden">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Key</TableHead>
              <TableHead>Mode</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Scopes</TableHead>
              <TableHead>Prevented</TableHead>
              <TableHead>Waivers</TableHead>
            </TableRow>
          </TableHeader>
        </Table>
        <EmptyState
          image="list"
          className="rounded-none border-0"
          title="No policies deployed yet"
          description="Create a policy from the catalogue, a recommendation or an initiative; its deployments, key and counts will be listed here."
        />
      </Card>
    </>
  );
}
