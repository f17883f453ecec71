import type { Clause, Initiative } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon, RocketIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { FilterSelect } from "@/components/filter-select";
import { PageHeader } from "@/components/page-header";
import { TextBlock } from "@/components/text-block";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { categoryLabels, providerLabel, stateLabels } from "@/lib/policy-definition-labels";
import { initiativePoliciesQuery, initiativeQuery } from "../api/initiative-queries";
import { frameworkLine } from "../framework-line";
import { type InitiativeTab, initiativeTabs } from "../initiative-tabs";
import { CoverageBar } from "./coverage-bar";
import { InstallInitiativeDialog } from "./install-initiative-dialog";
import { InstallProgress } from "./install-progress";

const tabLabels: Record<InitiativeTab, string> = {
  policies: "Policies",
  covered: "Covered",
  description: "Description",
};

function PoliciesTab({
  initiative,
  clause,
  policy,
  onClause,
}: {
  initiative: Initiative;
  clause?: string;
  policy?: string;
  onClause: (clause: string | undefined) => void;
}) {
  const permissions = usePermissions();
  const canDeploy = permissions.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT);
  const list = useQuery(initiativePoliciesQuery(initiative.slug, clause));
  const items = (list.data?.items ?? []).filter((item) => !policy || item.definition?.slug === policy);
  const titles = new Map(initiative.clauses.map((c) => [c.id, c.title]));
  return (
    <div className="space-y-3">
      <FilterSelect
        label="Clause"
        className="max-w-md"
        value={clause}
        options={initiative.clauses.map((c) => [c.id, `${c.id} ${c.title}`] as const)}
        onChange={(value) => onClause(value || undefined)}
      />
      {list.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : list.isError ? (
        <p className="text-sm text-destructive">{describeError(list.error).message}</p>
      ) : items.length === 0 ? (
        <EmptyState
          image="list"
          title="No policies for this selection"
          description="Choose another clause to see the policies that implement it."
        />
      ) : (
        <Card className="overflow-hidden">
          <Table aria-label="Initiative policies" stackOnPhone>
            <TableHeader>
              <TableRow>
                <TableHead>Policy</TableHead>
                <TableHead>Category</TableHead>
                <TableHead>Clauses</TableHead>
                <TableHead>State</TableHead>
                {canDeploy && (
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map(({ definition, clauseIds }) => {
                if (!definition) return null;
                const state = stateLabels[definition.state];
                return (
                  <TableRow key={definition.slug} data-testid="initiative-policy-row">
                    <TableCell label="Policy" className="max-w-md whitespace-normal">
                      <p className="font-medium">{definition.displayName}</p>
                      <p className="text-xs text-muted-foreground">{providerLabel(definition)}</p>
                    </TableCell>
                    <TableCell label="Category">{categoryLabels[definition.category]}</TableCell>
                    <TableCell label="Clauses" className="max-w-xs whitespace-normal text-xs">
                      {clauseIds.map((id) => (
                        <span key={id} title={titles.get(id)} className="mr-1 inline-block font-mono">
                          {id}
                        </span>
                      ))}
                    </TableCell>
                    <TableCell label="State">
                      <Badge variant={state.variant}>{state.label}</Badge>
                    </TableCell>
                    {canDeploy && (
                      <TableCell label="Actions" className="text-right">
                        <Button size="sm" variant="outline" asChild>
                          <Link
                            to="/policies/create"
                            search={{
                              defaultSelectedPolicies: [definition.slug],
                              initiativeSlug: initiative.slug,
                              initiativeTitle: initiative.name,
                              provider: providerLabel(definition),
                            }}
                          >
                            <RocketIcon />
                            Deploy
                          </Link>
                        </Button>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}

function ClauseBadge({ clause }: { clause: Clause }) {
  if (clause.installed) return <Badge variant="success">Deployed</Badge>;
  if (clause.covered) return <Badge variant="warning">Covered by the catalogue</Badge>;
  return <Badge variant="secondary">Not covered</Badge>;
}

function CoveredTab({
  initiative,
  onClause,
  onInstall,
}: {
  initiative: Initiative;
  onClause: (clause: string) => void;
  onInstall?: (clause: string) => void;
}) {
  if (initiative.clauses.length === 0) {
    return <EmptyState image="list" title="No clauses" description="This initiative lists no clauses." />;
  }
  return (
    <div className="space-y-3">
      <Card className="overflow-hidden">
        <Table aria-label="Clauses" stackOnPhone>
          <TableHeader>
            <TableRow>
              <TableHead>Clause</TableHead>
              <TableHead>Title</TableHead>
              <TableHead>Coverage</TableHead>
              <TableHead className="text-right">Policies</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {initiative.clauses.map((clause) => (
              <TableRow key={clause.id} data-testid="clause-row">
                <TableCell label="Clause" className="font-mono text-xs">
                  {clause.id}
                </TableCell>
                <TableCell label="Title" className="max-w-md whitespace-normal">
                  {clause.title}
                </TableCell>
                <TableCell label="Coverage">
                  <div className="flex flex-wrap items-center gap-2">
                    <ClauseBadge clause={clause} />
                    {onInstall && clause.covered && !clause.installed && (
                      <Button size="sm" variant="outline" onClick={() => onInstall(clause.id)}>
                        Install
                      </Button>
                    )}
                  </div>
                </TableCell>
                <TableCell label="Policies" className="text-right">
                  {clause.policySlugs.length > 0 ? (
                    <Button size="sm" variant="ghost" onClick={() => onClause(clause.id)}>
                      {clause.policySlugs.length}
                    </Button>
                  ) : (
                    0
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}

export function InitiativeDetailPage({
  initiativeId,
  tab,
  clause,
  policy,
}: {
  initiativeId: string;
  tab: InitiativeTab;
  clause?: string;
  policy?: string;
}) {
  const navigate = useNavigate({ from: "/initiatives/$initiativeId/" });
  const query = useQuery(initiativeQuery(initiativeId));
  const initiative = query.data?.initiative;
  const showClause = (next: string | undefined) =>
    void navigate({ search: (prev) => ({ ...prev, tab: "policies", clause: next, policy: undefined }) });
  const permissions = usePermissions();
  const canInstall = permissions.has(Permission.INITIATIVES_INSTANCE_WRITE);
  const [installing, setInstalling] = useState(false);
  const [installClause, setInstallClause] = useState<string | undefined>(clause);
  const [install, setInstall] = useState<{ jobId: string; skipped: number }>();
  const openInstall = (forClause: string | undefined) => {
    setInstallClause(forClause);
    setInstalling(true);
  };
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-2 w-fit" asChild>
        <Link to="/initiatives">
          <ArrowLeftIcon />
          All initiatives
        </Link>
      </Button>
      <PageHeader
        title={initiative?.name ?? (query.isPending ? "Initiative" : `Initiative ${initiativeId}`)}
        description="The framework's clauses, the guardrails that implement them and how much of it your deployed policies cover."
        actions={
          canInstall && initiative && initiative.installedPoliciesCount < initiative.policiesCount ? (
            <Button onClick={() => openInstall(clause)}>
              <RocketIcon />
              Install
            </Button>
          ) : undefined
        }
      />
      {initiative && (
        <Card className="space-y-3 p-4">
          <CoverageBar initiative={initiative} />
          <p className="text-xs text-muted-foreground tabular-nums">
            {initiative.installedPoliciesCount} of {initiative.policiesCount} policies deployed
            {initiative.deployedScopes.length > 0 &&
              `, on ${initiative.deployedScopes
                .map((scope) => `${scope.name} (${scope.policiesCount})`)
                .join(", ")}`}
          </p>
        </Card>
      )}
      {install && (
        <>
          {install.skipped > 0 && (
            <p className="text-sm text-muted-foreground">
              {install.skipped} policies were left out: already deployed there, or for the other cloud.
            </p>
          )}
          <InstallProgress jobId={install.jobId} />
        </>
      )}
      {initiative && canInstall && (
        <InstallInitiativeDialog
          initiative={initiative}
          clause={installClause}
          open={installing}
          onOpenChange={setInstalling}
          onStarted={(jobId, skipped) => setInstall({ jobId, skipped })}
        />
      )}
      {(clause || policy) && (
        <ul className="flex flex-wrap items-center gap-2" aria-label="Selection">
          {clause && (
            <li>
              <Badge variant="secondary">Clause: {clause}</Badge>
            </li>
          )}
          {policy && (
            <li>
              <Badge variant="secondary">Policy: {policy}</Badge>
            </li>
          )}
          <li>
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                void navigate({ search: (prev) => ({ ...prev, clause: undefined, policy: undefined }) })
              }
            >
              Clear selection
            </Button>
          </li>
        </ul>
      )}
      <Tabs
        value={tab}
        onValueChange={(value) =>
          void navigate({ search: (prev) => ({ ...prev, tab: value as InitiativeTab }) })
        }
      >
        <TabsList>
          {initiativeTabs.map((value) => (
            <TabsTrigger key={value} value={value}>
              {tabLabels[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        {query.isPending ? (
          <Skeleton className="h-48 w-full" />
        ) : query.isError || !initiative ? (
          <EmptyState
            image="list"
            title="This initiative could not be found"
            description={query.isError ? describeError(query.error).message : "Check the address."}
          />
        ) : (
          <>
            <TabsContent value="policies">
              <PoliciesTab initiative={initiative} clause={clause} policy={policy} onClause={showClause} />
            </TabsContent>
            <TabsContent value="covered">
              <CoveredTab
                initiative={initiative}
                onClause={showClause}
                onInstall={canInstall ? (id) => openInstall(id) : undefined}
              />
            </TabsContent>
            <TabsContent value="description">
              <Card className="space-y-2 p-6">
                {frameworkLine(initiative) && (
                  <p className="text-sm text-muted-foreground">{frameworkLine(initiative)}</p>
                )}
                {initiative.description ? (
                  <TextBlock lines={12}>{initiative.description}</TextBlock>
                ) : (
                  <p className="text-sm text-muted-foreground">No description available.</p>
                )}
              </Card>
            </TabsContent>
          </>
        )}
      </Tabs>
    </>
  );
}
