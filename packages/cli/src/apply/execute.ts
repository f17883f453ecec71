import type { Client } from "@connectrpc/connect";
import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type DeploymentBundle,
  DeploymentStatus,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import type { Change, Plan } from "../plan/plan";
import { describeChange } from "../plan/render";
import { type Source, sourcePathOf } from "../plan/source";
import { type ClientFactory, describeCallError } from "../remote/client";
import type { RemoteState } from "../remote/state";
import type { Io } from "../usage";
import {
  createBundleRequest,
  createWaiverRequest,
  notificationSettingsRequest,
  tenantSettingsRequest,
  updateBundleRequest,
} from "./requests";

export interface Outcome {
  change: Change;
  result: "created" | "updated" | "replaced" | "removed" | "failed";
  detail?: string;
}

const SETTLED = new Set([DeploymentStatus.DEPLOYED, DeploymentStatus.FAILED, DeploymentStatus.DELETED]);

function order(change: Change): number {
  if (change.object === "tenant-settings" || change.object === "notification-settings") return 0;
  if (change.object === "waiver" && change.action !== "create") return 1;
  if (change.object === "bundle" && change.action === "remove") return 2;
  if (change.object === "bundle") return 3;
  return 4;
}

/**
 * Carries out the plan: settings, then waivers leaving, bundles, a wait until the bundles'
 * deployments settle, and the waivers (which need their bundle deployed). Each object's outcome
 * is reported; one failure does not stop the others.
 */
export async function executePlan(
  plan: Plan,
  context: { clients: ClientFactory; remote: RemoteState; source: Source; io: Io; timeoutSeconds: number },
): Promise<Outcome[]> {
  const { clients, remote, source, io } = context;
  const manager = clients(DeploymentManagerService);
  const marking = (file: string) => ({ path: sourcePathOf(source, file), commit: source.commit });
  const keyOfBundle = new Map(remote.bundles.map((b) => [b.name, b.key]));
  const touched = new Map<string, { bundle: DeploymentBundle; outcome: Outcome }>();
  const outcomes: Outcome[] = [];
  const changes = [...plan.changes].sort((a, b) => order(a) - order(b));

  const attempt = async (change: Change, result: Outcome["result"], act: () => Promise<unknown>) => {
    const outcome: Outcome = { change, result };
    try {
      const bundle = (await act()) as DeploymentBundle | undefined;
      if (bundle) {
        keyOfBundle.set(bundle.name, bundle.key);
        touched.set(bundle.entity?.id ?? "", { bundle, outcome });
      }
    } catch (error) {
      outcome.result = "failed";
      outcome.detail = describeCallError(error);
    }
    outcomes.push(outcome);
    io.out(
      `  ${describeChange(change)}: ${outcome.result}${outcome.detail ? `\n    ${outcome.detail.replace(/\n/g, "\n    ")}` : ""}`,
    );
  };

  let waited = false;
  for (const change of changes) {
    if (order(change) === 4 && !waited) {
      waited = true;
      await waitForSettled(touched, manager, io, context.timeoutSeconds);
    }
    switch (change.object) {
      case "tenant-settings":
        await attempt(change, "updated", async () => {
          await clients(TenantService).updateSettings(tenantSettingsRequest(change.file.value, remote));
        });
        break;
      case "notification-settings":
        await attempt(change, "updated", async () => {
          await clients(NotificationService).updateSettings(
            notificationSettingsRequest(change.file.value, remote),
          );
        });
        break;
      case "bundle":
        if (change.action === "remove") {
          await attempt(change, "removed", async () => {
            await manager.deleteBundle({ id: change.remote.entity?.id ?? "" });
          });
        } else if (change.action === "create") {
          await attempt(
            change,
            "created",
            async () =>
              (await manager.createBundle(createBundleRequest(change.file.value, marking(change.file.path))))
                .bundle,
          );
        } else if (change.action === "replace") {
          await attempt(change, "replaced", async () => {
            await manager.deleteBundle({ id: change.remote.entity?.id ?? "" });
            return (
              await manager.createBundle(createBundleRequest(change.file.value, marking(change.file.path)))
            ).bundle;
          });
        } else {
          await attempt(
            change,
            "updated",
            async () =>
              (
                await manager.updateBundle(
                  updateBundleRequest(
                    change.remote.entity?.id ?? "",
                    change.file.value,
                    change.fields,
                    marking(change.file.path),
                  ),
                )
              ).bundle,
          );
        }
        break;
      case "waiver": {
        const cancel = async (ids: string[]) => {
          for (const id of ids) await manager.deleteWaiver({ id });
        };
        const create = async () => {
          const file = change.action === "remove" ? undefined : change.file;
          if (!file) return;
          const key = keyOfBundle.get(file.value.bundle);
          if (!key) throw new Error(`no bundle named "${file.value.bundle}" in the tenant.`);
          await manager.createWaiver(createWaiverRequest(file.value, key, marking(file.path)));
        };
        if (change.action === "remove") {
          await attempt(change, "removed", () =>
            cancel(change.remote.waivers.map((w) => w.entity?.id ?? "")),
          );
        } else if (change.action === "replace") {
          // Cancelled before the bundles change; made again once they have settled.
          await attempt(change, "removed", () =>
            cancel(change.remote.waivers.map((w) => w.entity?.id ?? "")),
          );
          changes.push({ action: "create", object: "waiver", file: change.file });
        } else {
          await attempt(change, "created", create);
        }
        break;
      }
    }
  }
  if (!waited) await waitForSettled(touched, manager, io, context.timeoutSeconds);
  return outcomes;
}

async function waitForSettled(
  touched: Map<string, { bundle: DeploymentBundle; outcome: Outcome }>,
  manager: Client<typeof DeploymentManagerService>,
  io: Io,
  timeoutSeconds: number,
) {
  const waiting = new Map([...touched].filter(([, t]) => t.outcome.result !== "failed"));
  if (waiting.size === 0) return;
  io.out(`Waiting for ${waiting.size} bundle(s) to deploy…`);
  const deadline = Date.now() + timeoutSeconds * 1_000;
  const last = new Map<string, DeploymentStatus>();
  while (waiting.size > 0) {
    for (const [id, entry] of waiting) {
      const answer = await manager.getBundle({ lookup: { case: "id", value: id } });
      const bundle = answer.bundle?.bundle;
      const status = bundle?.status ?? DeploymentStatus.UNSPECIFIED;
      if (last.get(id) !== status) {
        last.set(id, status);
        io.out(`  bundle "${entry.bundle.name}": ${DeploymentStatus[status].toLowerCase()}`);
      }
      if (SETTLED.has(status)) {
        waiting.delete(id);
        if (status === DeploymentStatus.FAILED) {
          entry.outcome.result = "failed";
          entry.outcome.detail = `the deployment failed (${(bundle?.errorCodes ?? []).map((c) => ProductErrorCode[c]).join(", ") || "see the bundle's page"}).`;
        }
      }
    }
    if (waiting.size === 0) break;
    if (Date.now() > deadline) {
      for (const entry of waiting.values()) {
        entry.outcome.result = "failed";
        entry.outcome.detail = `still deploying after ${timeoutSeconds} seconds; run plan again later to see where it stands.`;
      }
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
