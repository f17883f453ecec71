import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ConnectProcedure, connectGetPath } from "@palisade/api/connect-get";
import type { FastifyRequest } from "fastify";
import type { HttpApp } from "./http-app";
import { hasSessionCookie } from "./page-preloads";

/** The folder of the built app that holds its server renderers (the web app's vite-server-renderer-plugin.ts), never served as files. */
export const RENDERER_DIR = ".ssr";

/** A page given up on after this long is sent unrendered; the browser then renders it as it would have. */
const RENDER_TIMEOUT_MS = 2_000;

interface WaiverPageRenderer {
  renderWaiverRequestPage(
    search: string,
    reads: {
      session(): Promise<unknown>;
      call(procedure: ConnectProcedure, message: Record<string, string>): Promise<unknown>;
    },
  ): Promise<RenderedPage>;
}

interface SignedInPageRenderer {
  /** The procedures a signed-in page reads first, or undefined for a page the renderer does not render. */
  firstReadsOf(path: string): ConnectProcedure[] | undefined;
  renderSignedInPage(
    url: string,
    reads: { session(): Promise<unknown>; get(procedure: ConnectProcedure): Promise<unknown> },
  ): Promise<RenderedPage | undefined>;
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
 * A renderer the web build wrote (`<webDist>/.ssr/<name>.js`), loaded once beside the server's start
 * rather than on the first visitor's request; undefined for a build without it.
 */
function loadRenderer<T>(app: HttpApp, webDist: string, name: string): Promise<T> | undefined {
  const file = join(webDist, RENDERER_DIR, `${name}.js`);
  if (!existsSync(file)) return undefined;
  const renderer = import(pathToFileURL(file).href) as Promise<T>;
  renderer.catch((error: unknown) => app.log.error({ err: error }, `the ${name} page renderer did not load`));
  return renderer;
}

/**
 * What a page would read first, as the browser would have sent it: each read is a request this
 * server answers itself (Fastify's inject: no socket), from the visitor's address, so rate limits
 * and permissions apply as they would.
 */
function pageReads(app: HttpApp, request: FastifyRequest) {
  const host = request.headers.host ?? "";
  const cookie = request.headers.cookie;
  return {
    /** The visitor's session, or null without one. */
    async session() {
      if (!cookie || !hasSessionCookie(cookie)) return null;
      const response = await app.inject({
        method: "GET",
        url: "/api/auth/get-session",
        headers: { cookie, accept: "application/json", host },
        remoteAddress: request.ip,
      });
      return jsonOf(response) ?? null;
    },
    /** A public call, sent without the visitor's cookie, as it needs none. */
    async call(procedure: ConnectProcedure, message: Record<string, string>) {
      const response = await app.inject({
        method: "POST",
        url: `/${procedure}`,
        headers: { "content-type": "application/json", "connect-protocol-version": "1", host },
        payload: JSON.stringify(message),
        remoteAddress: request.ip,
      });
      return jsonOf(response);
    },
    /** A signed-in read, as the Connect GET the page's head preloads (same-origin, with the visitor's cookie). */
    async get(procedure: ConnectProcedure) {
      if (!cookie) return undefined;
      const response = await app.inject({
        method: "GET",
        url: connectGetPath(procedure, {}),
        headers: { cookie, host, "sec-fetch-site": "same-origin" },
        remoteAddress: request.ip,
      });
      return jsonOf(response);
    },
  };
}

/**
 * Renders a page with a renderer, or gives it up: without a built renderer, or when a render fails
 * or takes too long, the page is sent as built and the browser renders it.
 */
async function renderWith<T>(
  request: FastifyRequest,
  renderer: Promise<T> | undefined,
  render: (loaded: T) => Promise<RenderedPage | undefined>,
): Promise<RenderedPage | undefined> {
  // Loading the renderer is a cost of the server's start, not of this page: not timed.
  const loaded = await renderer?.catch(() => undefined);
  if (!loaded) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const gaveUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), RENDER_TIMEOUT_MS);
    });
    return await Promise.race([render(loaded), gaveUp]);
  } catch (error) {
    request.log.warn({ err: error }, "the page was sent unrendered");
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The pages rendered on the server with what they read first:
 * - `waiverPage`: the public waiver page (`/req?k=KEY`), with the visitor's session and the policy of the key;
 * - `signedInPage`: a signed-in page's first screen (the web app's first-reads.ts names which), with
 *   the visitor's session, tenant and the page's first data; undefined for any other page;
 * - `firstReadsOf`: the procedures that page reads first, as that renderer names them (none without
 *   it), for the page's head to preload where it is sent unrendered.
 */
export function createPageRenderers(app: HttpApp, webDist: string) {
  const waiverRenderer = loadRenderer<WaiverPageRenderer>(app, webDist, "req-server");
  const signedInRenderer = loadRenderer<SignedInPageRenderer>(app, webDist, "app-server");
  return {
    waiverPage: (request: FastifyRequest, search: string) =>
      renderWith(request, waiverRenderer, (renderer) =>
        renderer.renderWaiverRequestPage(search, pageReads(app, request)),
      ),
    signedInPage: (request: FastifyRequest, url: string) => {
      const cookie = request.headers.cookie;
      if (!cookie || !hasSessionCookie(cookie)) return Promise.resolve(undefined);
      return renderWith(request, signedInRenderer, (renderer) =>
        renderer.renderSignedInPage(url, pageReads(app, request)),
      );
    },
    firstReadsOf: async (path: string): Promise<ConnectProcedure[]> =>
      (await signedInRenderer?.catch(() => undefined))?.firstReadsOf(path) ?? [],
  };
}
