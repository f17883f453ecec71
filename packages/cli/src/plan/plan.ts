import type { DeploymentBundle } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import {
  bundleToFile,
  notificationSettingsToFile,
  preApprovedWaiverGroups,
  tenantSettingsToFile,
  type WaiverGroup,
} from "../files/from-remote";
import type { Folder, LoadedFile } from "../files/read-files";
import type { BundleFile, NotificationSettingsFile, TenantSettingsFile, WaiverFile } from "../files/schemas";
import type { RemoteState } from "../remote/state";
import { type Source, sourcePathOf } from "./source";

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export type Change =
  | { action: "create"; object: "bundle"; file: LoadedFile<BundleFile> }
  | {
      action: "update";
      object: "bundle";
      file: LoadedFile<BundleFile>;
      remote: DeploymentBundle;
      fields: FieldChange[];
    }
  /** The policy changed: the bundle is removed and made again (its waivers are cancelled). */
  | {
      action: "replace";
      object: "bundle";
      file: LoadedFile<BundleFile>;
      remote: DeploymentBundle;
      fields: FieldChange[];
    }
  | { action: "remove"; object: "bundle"; remote: DeploymentBundle }
  | { action: "create"; object: "waiver"; file: LoadedFile<WaiverFile> }
  | {
      action: "replace";
      object: "waiver";
      file: LoadedFile<WaiverFile>;
      remote: WaiverGroup;
      fields: FieldChange[];
    }
  | { action: "remove"; object: "waiver"; remote: WaiverGroup }
  | {
      action: "update";
      object: "tenant-settings";
      file: LoadedFile<TenantSettingsFile>;
      fields: FieldChange[];
    }
  | {
      action: "update";
      object: "notification-settings";
      file: LoadedFile<NotificationSettingsFile>;
      fields: FieldChange[];
    };

export interface Plan {
  changes: Change[];
  /** Things worth telling that change nothing (expired waivers, managed objects kept without --prune). */
  notes: string[];
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

const scopeSet = (scopes: readonly string[] | undefined) =>
  [...(scopes ?? [])].map((s) => s.toLowerCase()).sort();

/** The fields a bundle file sets that differ from the server's bundle. */
export function bundleDifferences(file: BundleFile, remote: BundleFile): FieldChange[] {
  const changes: FieldChange[] = [];
  const compare = (
    field: string,
    after: unknown,
    before: unknown,
    same = canonical(after) === canonical(before),
  ) => {
    if (!same) changes.push({ field, before, after });
  };
  compare("name", file.name, remote.name);
  compare("policy", file.policy, remote.policy);
  compare("mode", file.mode, remote.mode);
  compare(
    "scopes",
    file.scopes,
    remote.scopes,
    canonical(scopeSet(file.scopes)) === canonical(scopeSet(remote.scopes)),
  );
  compare(
    "excluded_scopes",
    file.excluded_scopes ?? [],
    remote.excluded_scopes ?? [],
    canonical(scopeSet(file.excluded_scopes)) === canonical(scopeSet(remote.excluded_scopes)),
  );
  compare("parameters", file.parameters ?? {}, remote.parameters ?? {});
  compare("visible", file.visible ?? true, remote.visible ?? true);
  compare("namespace", file.namespace || undefined, remote.namespace || undefined);
  if (file.waiver_approval && file.waiver_approval !== "tenant-default")
    compare("waiver_approval", file.waiver_approval, remote.waiver_approval);
  return changes;
}

const HOUR = 3_600_000;

/** The fields a waiver file sets that differ from the waivers applied from it. */
export function waiverDifferences(file: WaiverFile, remote: WaiverFile): FieldChange[] {
  const changes: FieldChange[] = [];
  const strip = ({ expires: _, ...rest }: WaiverFile) => ({ ...rest, ticket: rest.ticket || undefined });
  const a = strip(file) as Record<string, unknown>;
  const b = strip(remote) as Record<string, unknown>;
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (canonical(a[field]) !== canonical(b[field]))
      changes.push({ field, before: b[field], after: a[field] });
  }
  // AWS waivers end at the end of a shared window, up to an hour after the time asked for.
  const asked = new Date(file.expires).getTime();
  const ends = new Date(remote.expires).getTime();
  if (!(ends >= asked - 1_000 && ends <= asked + HOUR))
    changes.push({ field: "expires", before: remote.expires, after: file.expires });
  return changes;
}

function settingsDifferences<T extends object>(file: T, remote: T): FieldChange[] {
  return Object.entries(file)
    .filter(([field]) => field !== "kind")
    .filter(([field, value]) => canonical(value) !== canonical((remote as Record<string, unknown>)[field]))
    .map(([field, after]) => ({ field, before: (remote as Record<string, unknown>)[field], after }));
}

/** What apply would do to make the tenant match the folder. */
export function planChanges(
  folder: Folder,
  remote: RemoteState,
  options: { source: Source; prune: boolean; now?: Date },
): Plan {
  const changes: Change[] = [];
  const notes: string[] = [];
  const now = options.now ?? new Date();
  const managedPath = (file: { path: string }) => sourcePathOf(options.source, file.path);
  const ours = (path: string | undefined) =>
    path !== undefined && (options.source.path === "" || path.startsWith(`${options.source.path}/`));

  if (folder.tenantSettings && remote.tenantSettings) {
    const fields = settingsDifferences(
      folder.tenantSettings.value,
      tenantSettingsToFile(remote.tenantSettings),
    );
    if (fields.length > 0)
      changes.push({ action: "update", object: "tenant-settings", file: folder.tenantSettings, fields });
  }
  if (folder.notificationSettings && remote.notificationSettings) {
    const fields = settingsDifferences(
      folder.notificationSettings.value,
      notificationSettingsToFile(remote.notificationSettings),
    );
    if (fields.length > 0)
      changes.push({
        action: "update",
        object: "notification-settings",
        file: folder.notificationSettings,
        fields,
      });
  }

  const filePaths = new Set([...folder.bundles, ...folder.waivers].map(managedPath));
  const unmatched = new Set(remote.bundles);
  const matches: [LoadedFile<BundleFile>, DeploymentBundle | undefined][] = folder.bundles.map((file) => {
    const byPath = [...unmatched].find((b) => b.managedBy?.path === managedPath(file));
    // A bundle made by hand (or by a file since removed) with the same name is taken over.
    const byName = [...unmatched].find(
      (b) => b.name === file.value.name && !(b.managedBy && filePaths.has(b.managedBy.path)),
    );
    const found = byPath ?? byName;
    if (found) unmatched.delete(found);
    return [file, found];
  });
  for (const [file, found] of matches) {
    if (!found) {
      changes.push({ action: "create", object: "bundle", file });
      continue;
    }
    const fields = bundleDifferences(file.value, bundleToFile(found));
    if (found.managedBy?.path !== managedPath(file))
      fields.push({
        field: "managed_by",
        before: found.managedBy?.path ?? "(made by hand)",
        after: managedPath(file),
      });
    if (fields.some((f) => f.field === "policy"))
      changes.push({ action: "replace", object: "bundle", file, remote: found, fields });
    else if (fields.length > 0)
      changes.push({ action: "update", object: "bundle", file, remote: found, fields });
  }
  const leftBundles = [...unmatched].filter((b) => ours(b.managedBy?.path));
  if (options.prune)
    for (const bundle of leftBundles) changes.push({ action: "remove", object: "bundle", remote: bundle });
  else if (leftBundles.length > 0)
    notes.push(
      `${leftBundles.length} managed bundle(s) are no longer in the files; apply --prune removes them.`,
    );

  const groups = preApprovedWaiverGroups(remote.waivers).filter((g) => g.managedBy);
  const seen = new Set<WaiverGroup>();
  for (const file of folder.waivers) {
    const group = groups.find((g) => g.managedBy?.path === managedPath(file));
    if (group) seen.add(group);
    const expired = new Date(file.value.expires).getTime() <= now.getTime();
    if (expired) {
      if (!group) notes.push(`${file.path}: expired at ${file.value.expires}; nothing to apply.`);
      continue;
    }
    if (!group) {
      changes.push({ action: "create", object: "waiver", file });
      continue;
    }
    const fields = waiverDifferences(file.value, group.file);
    if (fields.length > 0) changes.push({ action: "replace", object: "waiver", file, remote: group, fields });
  }
  const leftWaivers = groups.filter((g) => !seen.has(g) && ours(g.managedBy?.path));
  if (options.prune)
    for (const group of leftWaivers) changes.push({ action: "remove", object: "waiver", remote: group });
  else if (leftWaivers.length > 0)
    notes.push(
      `${leftWaivers.length} managed waiver(s) are no longer in the files; apply --prune cancels them.`,
    );
  return { changes, notes };
}
