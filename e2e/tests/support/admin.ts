export const port = 8180;
export const baseURL = `http://127.0.0.1:${port}`;
export const adminEmail = "admin@palisade.test";
export const adminPassword = "Palisade-e2e-Password-1";
export const adminStorageState = new URL("../../.auth/admin.json", import.meta.url).pathname;
