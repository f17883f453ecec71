import { Link } from "@tanstack/react-router";
import { ArrowRightIcon, PlugZapIcon, ShieldCheckIcon, UsersIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const steps = [
  {
    to: "/connectors",
    icon: PlugZapIcon,
    title: "Connect a cloud",
    text: "Add an AWS organisation, an Azure tenant or the built-in sandbox cloud.",
  },
  {
    to: "/policies",
    icon: ShieldCheckIcon,
    title: "Deploy a policy",
    text: "Pick a guardrail from the catalogue and deploy it in alert or prevent mode.",
  },
  {
    to: "/team-members",
    icon: UsersIcon,
    title: "Invite your team",
    text: "Give colleagues the role they need, from viewer to administrator.",
  },
] as const;

export function DashboardPage() {
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Your guardrails at a glance: what was prevented, what raised an alert, which waivers are active and where resources drifted."
      />
      <div className="grid gap-4 md:grid-cols-3">
        {steps.map(({ to, icon: Icon, title, text }) => (
          <Link
            key={to}
            to={to}
            className="group rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Card className="h-full transition-colors group-hover:border-primary/40">
              <CardHeader>
                <div className="mb-2 flex size-9 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </div>
                <CardTitle className="flex items-center gap-1 text-base">
                  {title}
                  <ArrowRightIcon
                    className="size-4 opacity-0 transition-opacity group-hover:opacity-100"
                    aria-hidden="true"
                  />
                </CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
      <EmptyState
        image="table"
        title="Nothing to report yet"
        description="Once a policy is deployed to a connected cloud, prevented actions, alerts, waivers and drifts are summarised here, with the most active policies and the compliance trend."
      />
    </>
  );
}
