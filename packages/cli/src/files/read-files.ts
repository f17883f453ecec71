import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type Document, isMap, isNode, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { fieldPath, type Problem } from "./problems";
import {
  type BundleFile,
  fileSchemas,
  type Kind,
  type NotificationSettingsFile,
  type TenantSettingsFile,
  type WaiverFile,
} from "./schemas";

/** A file of the folder that parsed and matched its kind's schema. */
export interface LoadedFile<T> {
  /** Relative to the folder, with forward slashes: how the repository names it. */
  path: string;
  value: T;
  /** The 1-based line of a field ("parameters", "port"), or of its nearest parent present. */
  lineOf(path: readonly (string | number)[]): number;
}

export interface Folder {
  bundles: LoadedFile<BundleFile>[];
  waivers: LoadedFile<WaiverFile>[];
  tenantSettings?: LoadedFile<TenantSettingsFile>;
  notificationSettings?: LoadedFile<NotificationSettingsFile>;
  problems: Problem[];
}

const MAX_FILES = 5_000;
const MAX_FILE_BYTES = 1_000_000;

function yamlFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry.name)) found.push(relative(root, full).split(sep).join("/"));
    }
  };
  walk(root);
  return found.sort();
}

function lineFinder(doc: Document, counter: LineCounter) {
  return (path: readonly (string | number)[]): number => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) {
        // A map or list starts at its first entry; point at the key that holds it instead.
        if (depth > 0 && (isMap(node) || isSeq(node))) {
          const parent = depth === 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1), true);
          if (isMap(parent)) {
            const pair = parent.items.find(
              (p) => isNode(p.key) && (p.key as { value?: unknown }).value === path[depth - 1],
            );
            if (pair && isNode(pair.key) && pair.key.range) return counter.linePos(pair.key.range[0]).line;
          }
        }
        return counter.linePos(node.range[0]).line;
      }
    }
    return 1;
  };
}

/** Reads every YAML file under the folder, checking each against its kind's schema. */
export function readFolder(root: string): Folder {
  const folder: Folder = { bundles: [], waivers: [], problems: [] };
  let paths: string[];
  try {
    if (!statSync(root).isDirectory()) throw new Error("not a folder");
    paths = yamlFiles(root);
  } catch {
    folder.problems.push({ file: root, line: 0, field: "", message: "is not a readable folder." });
    return folder;
  }
  if (paths.length > MAX_FILES) {
    folder.problems.push({
      file: root,
      line: 0,
      field: "",
      message: `holds more than ${MAX_FILES} YAML files.`,
    });
    return folder;
  }
  for (const path of paths) {
    const text = readFileSync(join(root, path), "utf8");
    if (text.length > MAX_FILE_BYTES) {
      folder.problems.push({ file: path, line: 0, field: "", message: "is larger than 1 MB." });
      continue;
    }
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      for (const error of doc.errors) {
        const line = counter.linePos(error.pos[0]).line;
        folder.problems.push({
          file: path,
          line,
          field: "",
          message: `not valid YAML: ${error.message.split("\n")[0]}`,
        });
      }
      continue;
    }
    const lineOf = lineFinder(doc, counter);
    const value: unknown = doc.toJS();
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (typeof kind !== "string" || !(kind in fileSchemas)) {
      folder.problems.push({
        file: path,
        line: lineOf(["kind"]),
        field: "kind",
        message: `must be one of ${Object.keys(fileSchemas).join(", ")}.`,
      });
      continue;
    }
    const parsed = (fileSchemas[kind as Kind] as z.ZodType).safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.filter((p): p is string | number => typeof p !== "symbol");
        folder.problems.push({ file: path, line: lineOf(at), field: fieldPath(at), message: issue.message });
      }
      continue;
    }
    const loaded = { path, lineOf, value: parsed.data };
    if (kind === "Bundle") folder.bundles.push(loaded as LoadedFile<BundleFile>);
    else if (kind === "Waiver") folder.waivers.push(loaded as LoadedFile<WaiverFile>);
    else {
      const slot = kind === "TenantSettings" ? "tenantSettings" : "notificationSettings";
      if (folder[slot]) {
        folder.problems.push({
          file: path,
          line: lineOf(["kind"]),
          field: "kind",
          message: `a folder holds one ${kind} file; ${folder[slot]?.path} is another.`,
        });
      } else folder[slot] = loaded as never;
    }
  }
  return folder;
}
