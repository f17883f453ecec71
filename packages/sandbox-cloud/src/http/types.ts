import type { IncomingHttpHeaders } from "node:http";

export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  secure: boolean;
}

export interface SandboxResponse {
  status: number;
  headers?: Record<string, string>;
  /** Text, or bytes for binary bodies (S3 objects). */
  body?: string | Buffer;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
