/**
 * Components that add a style element at run time (a dialog's scroll lock) give it the page's
 * nonce, which the Content-Security-Policy requires; they read it from the global set here.
 */
export function adoptStyleNonce(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) Object.assign(globalThis, { __webpack_nonce__: nonce });
}
