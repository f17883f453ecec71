// E2E_PORT lets a second run share the machine with one already using the default port.
export const port = Number(process.env.E2E_PORT ?? 8180);
export const baseURL = `http://127.0.0.1:${port}`;
export const adminEmail = "admin@palisade.test";
export const adminPassword = "Palisade-e2e-Password-1";
export const adminStorageState = new URL("../../.auth/admin.json", import.meta.url).pathname;
