/**
 * Why an object applied from a file (palisade apply) offers no actions in the web, and where it
 * is changed instead: its file in the repository, at the commit it was applied from.
 */
export function managedByCodeNote(managedBy: { path: string; commit: string }): string {
  const source = managedBy.commit ? `${managedBy.path}@${managedBy.commit}` : managedBy.path;
  return `Managed by code: ${source}; change it in the repository.`;
}
