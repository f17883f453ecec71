/** The action a Teams card's link carries; the server checks the signature, this only labels the button. */
export function chatTokenAction(token: string): "approve" | "reject" | undefined {
  const [body] = token.split(".");
  if (!body) return undefined;
  try {
    const json = atob(body.replace(/-/g, "+").replace(/_/g, "/"));
    const action = (JSON.parse(json) as { action?: unknown }).action;
    return action === "approve" || action === "reject" ? action : undefined;
  } catch {
    return undefined;
  }
}
