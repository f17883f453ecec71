import { Code, ConnectError } from "@connectrpc/connect";
import type { DeploymentBundle } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import {
  NotificationService,
  type NotificationSettings,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { TenantService, type TenantSettings } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { type Waiver, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import type { ClientFactory } from "./client";

/** What the tenant holds now, as far as files describe it. */
export interface RemoteState {
  tenantName: string;
  bundles: DeploymentBundle[];
  /** Pending, active and propagating waivers. */
  waivers: Waiver[];
  tenantSettings: TenantSettings | undefined;
  /** Undefined when not asked for, or when the key may not read them. */
  notificationSettings: NotificationSettings | undefined;
}

const PAGE = 200;
/** A bound on what one run reads: 200 pages of 200. */
const MAX_PAGES = 200;

async function allPages<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; totalPages: number }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await fetchPage(page);
    items.push(...answer.items);
    if (page >= answer.totalPages || answer.items.length === 0) break;
  }
  return items;
}

function totalPages(pagination: { position: { case?: string; value?: unknown } } | undefined): number {
  return pagination?.position.case === "totalPages" ? Number(pagination.position.value) : 1;
}

export async function readRemoteState(
  clients: ClientFactory,
  options: { notifications: "required" | "optional" | "skip" },
): Promise<RemoteState> {
  const manager = clients(DeploymentManagerService);
  const current = await clients(TenantService).getCurrent({});
  const bundles = await allPages(async (page) => {
    const answer = await manager.listBundle({
      pagination: { position: { case: "page", value: page }, limit: PAGE },
    });
    return {
      items: answer.items.flatMap((item) => (item.bundle ? [item.bundle] : [])),
      totalPages: totalPages(answer.pagination),
    };
  });
  const waivers = await allPages(async (page) => {
    const answer = await clients(WaiverService).list({
      pagination: { position: { case: "page", value: page }, limit: PAGE },
      filter: { status: [WaiverStatus.PENDING, WaiverStatus.ACTIVE, WaiverStatus.PROPAGATING] },
    });
    return { items: answer.items, totalPages: totalPages(answer.pagination) };
  });
  let notificationSettings: NotificationSettings | undefined;
  if (options.notifications !== "skip") {
    try {
      notificationSettings = (await clients(NotificationService).getSettings({})).settings;
    } catch (error) {
      const denied = ConnectError.from(error).code === Code.PermissionDenied;
      if (!denied || options.notifications === "required") throw error;
    }
  }
  return {
    tenantName: current.tenant?.name ?? "",
    bundles,
    waivers,
    tenantSettings: current.tenant?.settings,
    notificationSettings,
  };
}
