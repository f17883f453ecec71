/** A Connect procedure's name, as its path names it: `package.Service/Method`. */
export type ConnectProcedure = `${string}.${string}/${string}`;

/**
 * The address of a unary call sent as a Connect GET (a method marked `NO_SIDE_EFFECTS`), with its
 * JSON request in the query: https://connectrpc.com/docs/protocol/#unary-get-request. The web app
 * calls through it and the server announces the same address in a page's head, so the browser
 * reuses the preloaded answer: both must build it byte for byte alike.
 */
export function connectGetPath(procedure: ConnectProcedure, message: unknown): string {
  return `/${procedure}?connect=v1&encoding=json&message=${encodeURIComponent(JSON.stringify(message))}`;
}
