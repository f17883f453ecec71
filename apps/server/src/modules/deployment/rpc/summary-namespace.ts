import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SummaryNamespaceRequest,
  SummaryNamespaceResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { parseNamespace } from "../bundle-input";
import { summariseNamespaceEvents, summariseNamespaceWaivers } from "../bundle-query-repository";
import { summariseBundles } from "../bundle-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function summaryNamespace(
  { db }: DeploymentServiceDeps,
  req: SummaryNamespaceRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SummaryNamespaceResponseSchema>> {
  const caller = requireCaller(ctx);
  const namespace = parseNamespace(req.namespace);
  if (!namespace) throw invalidField("namespace", "required.");
  const [policies, events, waivers] = await Promise.all([
    summariseBundles(db, caller.tenantId, namespace),
    summariseNamespaceEvents(db, caller.tenantId, namespace),
    summariseNamespaceWaivers(db, caller.tenantId, namespace),
  ]);
  const summary = (mode: string) => ({
    eventCount: events.find((e) => e.mode === mode)?.events ?? 0,
    policyCount: policies.find((p) => p.mode === mode)?.policies ?? 0,
  });
  return { prevents: summary("PREVENT"), alerts: summary("ALERT"), waivers };
}
