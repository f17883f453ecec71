import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetBundleRequest,
  GetBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { bundleById, bundleByKey } from "../bundle-lookup";
import { bundleCounts } from "../bundle-query-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { excludedBundleFields, extendedBundleMessage } from "../deployment-message";

export async function getBundle(
  { db }: DeploymentServiceDeps,
  req: GetBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetBundleResponseSchema>> {
  const caller = requireCaller(ctx);
  const excluded = excludedBundleFields(req.excludeMask?.paths);
  const bundle =
    req.lookup.case === "id"
      ? await bundleById(db, caller, req.lookup.value)
      : req.lookup.case === "key"
        ? await bundleByKey(db, caller, req.lookup.value)
        : undefined;
  if (!bundle) {
    throw invalidArgument("id or key: required.", [
      { field: "id", message: "required." },
      { field: "key", message: "required." },
    ]);
  }
  return {
    bundle: extendedBundleMessage(bundle, await bundleCounts(db, caller.tenantId, bundle.id), excluded),
  };
}
