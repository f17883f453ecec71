import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SandboxState } from "./model";
import { createSeedState } from "./seed";
import { ensureDelegatedConnectorRole, ensureOrganizationTrail } from "./seed-trail";

const STATE_FILE = "sandbox-state.json";
/**
 * Audit streams are capped (newest kept) so a sandbox left running for weeks keeps a bounded
 * state file; the state is written whole, so a larger cap costs a larger write after each change.
 */
export const MAX_AUDIT_RECORDS = 20_000;

export interface StateStore {
  state: SandboxState;
  /** Simulated time: host time plus the offset tests and demos move forward. */
  now(): Date;
  /** The most an Activity Log event waits after it happens before it is listed. */
  activityLogLagMs?: number;
  changed(): void;
  flush(): Promise<void>;
}

export async function openStateStore(
  dataDir: string,
  seed: number,
  options: { debounceMs?: number; maxAuditRecords?: number; activityLogLagMs?: number } = {},
): Promise<StateStore> {
  const debounceMs = options.debounceMs ?? 1000;
  const maxAuditRecords = options.maxAuditRecords ?? MAX_AUDIT_RECORDS;
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, STATE_FILE);
  const state: SandboxState = existsSync(file)
    ? (JSON.parse(await readFile(file, "utf8")) as SandboxState)
    : createSeedState(seed);
  // A state saved before the organisation trail existed gains it.
  ensureOrganizationTrail(state.aws);
  ensureDelegatedConnectorRole(state.aws);
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let dirty = !existsSync(file);

  const write = async () => {
    dirty = false;
    trim(state, maxAuditRecords);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(state));
    await rename(tmp, file);
  };
  const schedule = () => {
    writing = writing.then(write, write);
    return writing;
  };

  const store: StateStore = {
    state,
    now: () => new Date(Date.now() + state.clockOffsetMs),
    activityLogLagMs: options.activityLogLagMs,
    changed() {
      dirty = true;
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        // A failed write (disk full, directory removed) is retried on the next change or flush.
        schedule().catch(() => {
          dirty = true;
        });
      }, debounceMs);
      timer.unref();
    },
    async flush() {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      if (dirty) await schedule();
      else await writing;
    },
  };
  if (dirty) await store.flush();
  return store;
}

function trim(state: SandboxState, max: number) {
  for (const list of [state.aws.trail, state.azure.activityLog, state.azure.policyStates]) {
    if (list.length > max) list.splice(0, list.length - max);
  }
}
