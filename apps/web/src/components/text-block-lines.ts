export const minLines = 1;
export const maxLines = 12;
export const defaultLines = 6;

export function clampLines(lines: number | undefined): number {
  if (lines === undefined || Number.isNaN(lines)) return defaultLines;
  return Math.min(maxLines, Math.max(minLines, Math.round(lines)));
}
