const storageKey = "palisade.lastLogin";

/** The address, display name and sign-in method used last on this browser, offered first next time. */
export interface LastLogin {
  loginId: string;
  name: string;
  /** The id of the sign-in method, e.g. "password" or "email-otp"; absent in older entries. */
  method?: string;
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
      const method = "method" in parsed && typeof parsed.method === "string" ? parsed.method : undefined;
      return method
        ? { loginId: parsed.loginId, name: parsed.name, method }
        : { loginId: parsed.loginId, name: parsed.name };
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
