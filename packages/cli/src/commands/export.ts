import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stringify } from "yaml";
import {
  bundleToFile,
  notificationSettingsToFile,
  preApprovedWaiverGroups,
  tenantSettingsToFile,
} from "../files/from-remote";
import { clientFactory, connectionFromEnv } from "../remote/client";
import { readRemoteState } from "../remote/state";
import { type Command, CommandFailed } from "../usage";

function slugOf(text: string): string {
  return (
    text
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "unnamed"
  );
}

/** A file name not yet taken in the folder: name.yaml, name-2.yaml, … */
function freeName(taken: Set<string>, folder: string, base: string): string {
  for (let n = 1; ; n++) {
    const path = `${folder}/${base}${n === 1 ? "" : `-${n}`}.yaml`;
    if (!taken.has(path)) {
      taken.add(path);
      return path;
    }
  }
}

/** The file's path below the folder, when an object was applied from a file of the same layout. */
function managedFileName(path: string | undefined, folder: string): string | undefined {
  const at = path?.lastIndexOf(`${folder}/`) ?? -1;
  return path && at >= 0 ? path.slice(at) : undefined;
}

export const exportCommand: Command = {
  name: "export",
  summary: "Write the tenant's bundles, waivers and settings to a folder, one YAML file per object.",
  args: "<dir>",
  positionals: { min: 1, max: 1 },
  options: {
    force: {
      type: "boolean",
      description:
        "write into a folder that is not empty, replacing its bundles/, waivers/ and settings/ files",
    },
  },
  help: [
    "Writes bundles/*.yaml, waivers/*.yaml (pre-approved waivers still open), settings/tenant.yaml",
    "and settings/notifications.yaml (when the key may read them; webhooks and secrets are never",
    "written). The same tenant exports to the same bytes, so a second export shows no diff.",
  ].join("\n"),
  async run({ positionals, values, io, env }) {
    const dir = positionals[0] as string;
    if (existsSync(dir) && readdirSync(dir).length > 0 && !values.force)
      throw new CommandFailed(
        `${dir} is not empty; choose an empty folder or pass --force to write into it.`,
      );
    const clients = clientFactory(connectionFromEnv(env));
    const state = await readRemoteState(clients, { notifications: "optional" });
    const files = new Map<string, unknown>();
    const taken = new Set<string>();
    const bundles = [...state.bundles].sort(
      (a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key),
    );
    const groups = preApprovedWaiverGroups(state.waivers).sort(
      (a, b) =>
        a.file.bundle.localeCompare(b.file.bundle) ||
        JSON.stringify(a.file).localeCompare(JSON.stringify(b.file)),
    );
    // Objects applied from files keep their file names; the others are named after what they are.
    const named = new Map<object, string>();
    const objects = [
      ...bundles.map((b) => ({
        key: b as object,
        folder: "bundles",
        managed: b.managedBy?.path,
        base: slugOf(b.name),
        file: bundleToFile(b),
      })),
      ...groups.map((g) => ({
        key: g as object,
        folder: "waivers",
        managed: g.managedBy?.path,
        base: `${slugOf(g.file.bundle)}-${slugOf((g.file.scope ?? g.file.principal ?? g.file.resource ?? "").split(/[/:]/).pop() ?? "")}`,
        file: g.file,
      })),
    ];
    for (const object of objects) {
      const kept = managedFileName(object.managed, object.folder);
      if (kept && !taken.has(kept)) {
        taken.add(kept);
        named.set(object.key, kept);
      }
    }
    for (const object of objects) {
      files.set(named.get(object.key) ?? freeName(taken, object.folder, object.base), object.file);
    }
    if (state.tenantSettings) files.set("settings/tenant.yaml", tenantSettingsToFile(state.tenantSettings));
    if (state.notificationSettings)
      files.set("settings/notifications.yaml", notificationSettingsToFile(state.notificationSettings));
    else
      io.err(
        "note: notification settings not exported (the API key's role does not grant TENANT_SETTINGS_WRITE).",
      );
    // A re-export replaces the files of the objects it writes: one left from an object since gone
    // would come back on the next apply.
    for (const sub of ["bundles", "waivers", "settings"]) {
      const folder = join(dir, sub);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        if (/\.ya?ml$/.test(name) && !files.has(`${sub}/${name}`)) rmSync(join(folder, name));
      }
    }
    for (const [path, value] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, stringify(value, { lineWidth: 0 }));
    }
    io.out(
      `Exported ${state.bundles.length} bundle(s), ${groups.length} waiver(s) and the settings of ${state.tenantName || "the tenant"} to ${dir}.`,
    );
    return 0;
  },
};
