const storageKey = "palisade.lastLogin";

export interface LastLogin {
  loginId: string;
  name: string;
}

export function readLastLogin(storage: Pick<Storage, "getItem"> = localStorage): LastLogin | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? "null");
    if (
      parsed &&
      typeof parsed === "object" &&
      "loginId" in parsed &&
      typeof parsed.loginId === "string" &&
      "name" in parsed &&
      typeof parsed.name === "string"
    ) {
      return { loginId: parsed.loginId, name: parsed.name };
    }
  } catch {
    // A corrupt entry is treated as no entry.
  }
  return null;
}

export function rememberLastLogin(login: LastLogin, storage: Pick<Storage, "setItem"> = localStorage): void {
  storage.setItem(storageKey, JSON.stringify(login));
}

export function forgetLastLogin(storage: Pick<Storage, "removeItem"> = localStorage): void {
  storage.removeItem(storageKey);
}
