import { type APIRequestContext, expect, request } from "@playwright/test";
import { adminStorageState, baseURL } from "./admin";

/** A unary Connect call with the JSON encoding, as the administrator. */
export async function callAsAdmin<Res>(api: APIRequestContext, method: string, body: unknown): Promise<Res> {
  const response = await api.post(`/${method}`, {
    data: body,
    // The session cookie is accepted from Palisade's own pages only.
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
  });
  expect(response.ok(), `${method}: ${await response.text()}`).toBe(true);
  return (await response.json()) as Res;
}

export function adminApi(): Promise<APIRequestContext> {
  return request.newContext({ baseURL, storageState: adminStorageState });
}
