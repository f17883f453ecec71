import type { MessageInitShape } from "@bufbuild/protobuf";
import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import {
  DeploymentManagerService,
  type StartImpactPreviewRequestSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { ImpactPreviewStatus } from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { appTransport } from "@/lib/transport";

/** What a preview is asked for: a policy with its parameters, on scopes. */
export type ImpactPreviewRequest = MessageInitShape<typeof StartImpactPreviewRequestSchema>;

/** While a preview runs, its progress is read this often. */
const PREVIEW_POLL_MS = 1000;

export const previewRunning = (status: ImpactPreviewStatus | undefined) =>
  status === ImpactPreviewStatus.QUEUED || status === ImpactPreviewStatus.RUNNING;

/** A preview's progress and result; read again every second until it has finished. */
export function impactPreviewQuery(id: string) {
  return {
    ...createQueryOptions(
      DeploymentManagerService.method.getImpactPreview,
      { id },
      { transport: appTransport },
    ),
    enabled: id !== "",
    refetchInterval: (query: { state: { data?: { preview?: { status: ImpactPreviewStatus } } } }) =>
      previewRunning(query.state.data?.preview?.status) ? PREVIEW_POLL_MS : false,
  };
}

export function useStartImpactPreview() {
  return useMutation(DeploymentManagerService.method.startImpactPreview, { transport: appTransport });
}
