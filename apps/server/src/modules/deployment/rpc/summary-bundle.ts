import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SummaryBundleRequest,
  SummaryBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { parseNamespace } from "../bundle-input";
import { summariseBundles } from "../bundle-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function summaryBundle(
  { db }: DeploymentServiceDeps,
  req: SummaryBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SummaryBundleResponseSchema>> {
  const caller = requireCaller(ctx);
  const namespace = req.namespace === undefined ? undefined : (parseNamespace(req.namespace) ?? undefined);
  const rows = await summariseBundles(db, caller.tenantId, namespace);
  const of = (mode: string) => rows.find((r) => r.mode === mode)?.policies ?? 0;
  return { total: of("PREVENT") + of("ALERT"), prevent: of("PREVENT"), alert: of("ALERT") };
}
