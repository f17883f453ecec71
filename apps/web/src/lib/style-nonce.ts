/**
 * Components that add a style element at run time (a dialog's scroll lock) give it the page's
 * nonce, which the Content-Security-Policy requires; they read it from the global set here.
 */
export function adoptStyleNonce(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) Object.assign(globalThis, { __webpack_nonce__: nonce });
}

/** The page's style nonce, for components that take it as a property (a select's viewport style). */
export function styleNonce(): string | undefined {
  return (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__;
}
