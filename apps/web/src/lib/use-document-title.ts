import { useEffect } from "react";

export function documentTitle(page: string | undefined): string {
  return page ? `${page} · Palisade` : "Palisade";
}

export function useDocumentTitle(page: string | undefined): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
