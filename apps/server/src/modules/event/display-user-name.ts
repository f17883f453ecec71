export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_BUDGET = 20;

/**
 * How a user appears in lists: a blank id is "Unknown User"; a service account known only by
 * its UUID is "Auto-Service" followed by the start of the id, cut to the 20-character budget.
 */
export function displayUserName(
  identifier: string | null | undefined,
  name: string | null | undefined,
): string {
  const id = (identifier ?? "").trim();
  if (!id) return "Unknown User";
  const shown = (name ?? "").trim();
  if (UUID.test(id) && (!shown || UUID.test(shown))) {
    const text = `Auto-Service ${id}`;
    return text.length > NAME_BUDGET ? `${text.slice(0, NAME_BUDGET - 3)}...` : text;
  }
  return shown || id;
}
