import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { Link, useNavigate } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { useCallback } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Permission, usePermissions } from "@/lib/permissions";
import { withFilter } from "../catalogue-filters";
import type { PoliciesSearch } from "../policies-search";
import { CatalogueTable } from "./catalogue-table";
import { DeployedTable } from "./deployed-table";

export function PoliciesPage({ search }: { search: PoliciesSearch }) {
  const permissions = usePermissions();
  const canDeploy = permissions.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT);
  const navigate = useNavigate({ from: "/policies/" });
  const view = search.view ?? "catalogue";
  const onChange = useCallback(
    <K extends keyof PoliciesSearch>(key: K, value: PoliciesSearch[K]) =>
      void navigate({ search: (prev) => withFilter(prev, key, value), replace: key === "search" }),
    [navigate],
  );
  return (
    <>
      <PageHeader
        title="Policies"
        description="Choose guardrails from the catalogue and deploy them to your clouds in prevent or alert mode. Each deployed policy has a 7-character key that appears in the deny message."
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
      <Tabs value={view} onValueChange={(value) => onChange("view", value as PoliciesSearch["view"])}>
        <TabsList>
          <TabsTrigger value="catalogue">Catalogue</TabsTrigger>
          <TabsTrigger value="deployed">Deployed</TabsTrigger>
        </TabsList>
        <TabsContent value="catalogue">
          <CatalogueTable search={search} canDeploy={canDeploy} onChange={onChange} />
        </TabsContent>
        <TabsContent value="deployed">
          <DeployedTable
            page={search.page ?? 1}
            mode={
              search.state === "prevent"
                ? DeploymentMode.PREVENT
                : search.state === "alert"
                  ? DeploymentMode.ALERT
                  : undefined
            }
            onPage={(page) => onChange("page", page)}
          />
        </TabsContent>
      </Tabs>
    </>
  );
}
