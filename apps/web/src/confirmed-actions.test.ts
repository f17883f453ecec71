import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The contract's methods that start or stop enforcement, grant or refuse access, or delete:
 * every screen that calls one asks first, with the app's confirmation dialog naming the effect.
 */
const confirmedMethods = [
  "WaiverService.method.update", // approve (grants access) or reject (final)
  "WaiverService.method.cancel",
  "DeploymentManagerService.method.createBundle", // straight to PREVENT starts enforcement
  "DeploymentManagerService.method.updateBundle", // switching the mode
  "DeploymentManagerService.method.deleteBundle",
  "InitiativeService.method.installInitiative",
  "ConnectorService.method.deleteConnector",
  "TeamService.method.removeMember",
  "TeamService.method.resetMemberMfa",
  "TeamService.method.revokeMemberSessions",
  "TeamService.method.revokeApiKey",
  "TeamService.method.revokeInvitation",
  "AccountService.method.revokeSession",
  "AccountService.method.revokeAllSessions",
  "NotificationService.method.decideFromChat",
];

/** Screens that are themselves the confirmation, and why. */
const confirmationPages: Record<string, string> = {
  "features/notification/components/chat-decision-page.tsx":
    "a Teams card's Approve or Reject opens this page, where the member confirms the decision",
};

const src = join(import.meta.dirname);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const sources = files(join(src, "features")).map((path) => ({ path, text: readFileSync(path, "utf8") }));

/** The hooks that run a method: the exported function whose body names it. */
function hooksOf(method: string): string[] {
  return sources.flatMap(({ text }) =>
    text
      .split(/(?=^export function )/m)
      .filter((part) => part.includes(`useMutation(${method}`))
      .flatMap((part) => /^export function (use\w+)/.exec(part)?.[1] ?? []),
  );
}

const asksFirst = (text: string) => /<Confirm\w*\b/.test(text) || text.includes(`role="alertdialog"`);

/** The screen asks itself, or hands the action to a component of its own folder that asks. */
function confirms(path: string, text: string): boolean {
  if (relative(src, path) in confirmationPages || asksFirst(text)) return true;
  return [...text.matchAll(/from "\.\/([\w-]+)"/g)].some(([, name]) => {
    const local = sources.find((source) => source.path === join(path, "..", `${name}.tsx`));
    return !!local && asksFirst(local.text);
  });
}

describe("every action that changes enforcement, access or deletes confirms first", () => {
  it.each(confirmedMethods)("%s", (method) => {
    const hooks = hooksOf(method);
    expect(hooks.length, `a mutation hook runs ${method}`).toBeGreaterThan(0);
    const screens = sources.filter(
      ({ path, text }) => path.endsWith(".tsx") && hooks.some((hook) => text.includes(`${hook}(`)),
    );
    expect(screens.length, `a screen calls ${hooks.join(", ")}`).toBeGreaterThan(0);
    const unconfirmed = screens
      .filter(({ path, text }) => !confirms(path, text))
      .map(({ path }) => relative(src, path));
    expect(unconfirmed).toEqual([]);
  });
});
