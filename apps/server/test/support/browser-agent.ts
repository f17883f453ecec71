import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";

/**
 * A minimal browser for redirect-based sign-in flows: follows redirects one by one, keeps the
 * cookies of each host (like a browser, not per port) and submits forms. `proxies` maps a public
 * origin to the loopback address that serves it (a reverse proxy in front of the server).
 */
export interface BrowserAgent {
  /** Cookies of a host as a Cookie header. */
  cookieHeader(url: string): string;
  /** One request, no redirect followed; cookies stored. */
  request(
    url: string,
    init?: { method?: string; form?: Record<string, string>; json?: unknown; origin?: string },
  ): Promise<Response>;
  /** Follows redirects from `url` until a page answers (or `stopAt` matches the next URL). */
  follow(
    url: string,
    stopAt?: (url: string) => boolean,
  ): Promise<{ url: string; response: Response | undefined }>;
}

export function createBrowserAgent(proxies: Record<string, string> = {}): BrowserAgent {
  const jars = new Map<string, Map<string, string>>();
  const jarOf = (url: string) => {
    const host = new URL(url).hostname;
    let jar = jars.get(host);
    if (!jar) {
      jar = new Map();
      jars.set(host, jar);
    }
    return jar;
  };
  function store(url: string, response: Response) {
    const jar = jarOf(url);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => {
        const [key = "", raw = ""] = a.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(raw) <= 0;
        if (key.toLowerCase() === "expires") return new Date(raw).getTime() < Date.now();
        return false;
      });
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
  }
  const agent: BrowserAgent = {
    cookieHeader(url) {
      return [...jarOf(url)].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    async request(url, init = {}) {
      const headers: Record<string, string> = { cookie: agent.cookieHeader(url) };
      let body: string | undefined;
      if (init.form) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        body = new URLSearchParams(init.form).toString();
      } else if (init.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.json);
      }
      if (init.origin) headers.origin = init.origin;
      const origin = new URL(url).origin;
      const target = proxies[origin] ? `${proxies[origin]}${url.slice(origin.length)}` : url;
      const response = await fetch(target, {
        method: init.method ?? (body ? "POST" : "GET"),
        headers,
        body,
        redirect: "manual",
      });
      store(url, response);
      return response;
    },
    async follow(start, stopAt) {
      let url = start;
      for (let hop = 0; hop < 20; hop += 1) {
        if (stopAt?.(url)) return { url, response: undefined };
        const response = await agent.request(url);
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || !location) return { url, response };
        await response.body?.cancel();
        url = new URL(location, url).toString();
      }
      throw new Error(`too many redirects from ${start}`);
    },
  };
  return agent;
}

/** Palisade's RPCs as its own page at `publicUrl` calls them, with the agent's session cookie. */
export function pageClient<S extends DescService>(
  agent: BrowserAgent,
  publicUrl: string,
  serverUrl: string,
  service: S,
): Client<S> {
  const asPage: Interceptor = (next) => (req) => {
    req.header.set("cookie", agent.cookieHeader(publicUrl));
    req.header.set("origin", publicUrl);
    return next(req);
  };
  return createClient(
    service,
    createConnectTransport({ baseUrl: serverUrl, httpVersion: "1.1", interceptors: [asPage] }),
  );
}
