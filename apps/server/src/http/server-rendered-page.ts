import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyRequest } from "fastify";
import type { HttpApp } from "./http-app";
import { hasSessionCookie } from "./page-preloads";

/** The folder of the built app that holds its server renderer (the web app's vite-server-renderer-plugin.ts), never served as files. */
export const RENDERER_DIR = ".ssr";

/** The public waiver page's server renderer, as the web build writes it. */
const RENDERER_FILE = join(RENDERER_DIR, "req-server.js");

/** A page given up on after this long is sent unrendered; the browser then renders it as it would have. */
const RENDER_TIMEOUT_MS = 2_000;

interface WaiverPageRenderer {
  renderWaiverRequestPage(
    search: string,
    reads: {
      session(): Promise<unknown>;
      call(procedure: string, message: Record<string, string>): Promise<unknown>;
    },
  ): Promise<{ html: string; dataScript: string }>;
}

export interface RenderedPage {
  /** The page's content, for its `#root` element. */
  html: string;
  /** The data block the browser renders the same content from. */
  dataScript: string;
}

/** The JSON of an answer this server gave itself, or undefined for anything but a 200. */
function jsonOf(response: { statusCode: number; body: string }): unknown {
  return response.statusCode === 200 ? JSON.parse(response.body) : undefined;
}

/**
 * Renders the public waiver page (`/req?k=KEY`) on the server with what the page would read first:
 * the visitor's session and the policy of the key. Each read is a request this server answers
 * itself (Fastify's inject: no socket), as the browser would have sent it, from the visitor's
 * address, so rate limits and permissions apply as they would. Without a built renderer, or when a
 * render fails or takes too long, the page is sent as built and the browser renders it.
 */
export function createWaiverPageRenderer(app: HttpApp, webDist: string) {
  const file = join(webDist, RENDERER_FILE);
  if (!existsSync(file)) return async (): Promise<RenderedPage | undefined> => undefined;
  // Loaded once, beside the server's start, rather than on the first visitor's request.
  const renderer = import(pathToFileURL(file).href) as Promise<WaiverPageRenderer>;
  renderer.catch((error: unknown) => app.log.error({ err: error }, "the waiver page renderer did not load"));

  return async (request: FastifyRequest, search: string): Promise<RenderedPage | undefined> => {
    const reads = {
      async session() {
        const cookie = request.headers.cookie;
        if (!cookie || !hasSessionCookie(cookie)) return null;
        const response = await app.inject({
          method: "GET",
          url: "/api/auth/get-session",
          headers: { cookie, accept: "application/json", host: request.headers.host ?? "" },
          remoteAddress: request.ip,
        });
        return jsonOf(response) ?? null;
      },
      async call(procedure: string, message: Record<string, string>) {
        // Public reads: sent without the visitor's cookie, as they need none.
        const response = await app.inject({
          method: "POST",
          url: `/${procedure}`,
          headers: {
            "content-type": "application/json",
            "connect-protocol-version": "1",
            host: request.headers.host ?? "",
          },
          payload: JSON.stringify(message),
          remoteAddress: request.ip,
        });
        return jsonOf(response);
      },
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      // Loading the renderer is a cost of the server's start, not of this page: not timed.
      const { renderWaiverRequestPage } = await renderer;
      const gaveUp = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), RENDER_TIMEOUT_MS);
      });
      return await Promise.race([renderWaiverRequestPage(search, reads), gaveUp]);
    } catch (error) {
      request.log.warn({ err: error }, "the waiver page was sent unrendered");
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}
