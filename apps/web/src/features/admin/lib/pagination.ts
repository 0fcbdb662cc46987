/** prototype-spec §9: 10 rows per page, 5 page buttons at most. */
export const DEFAULT_PAGE_SIZE = 10;
export const VISIBLE_PAGE_BUTTONS = 5;

export function pageCount(total: number, pageSize: number = DEFAULT_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A page number from the URL: an integer between 1 and the last page, 1 when missing or invalid. */
export function clampPage(raw: string | null, lastPage: number): number {
  const page = Number(raw ?? '1');
  if (!Number.isInteger(page) || page < 1) return 1;
  return Math.min(page, lastPage);
}

/** The page buttons to show: a window centred on the current page and shifted at the ends (§9). */
export function pageWindow(current: number, lastPage: number, size: number = VISIBLE_PAGE_BUTTONS): number[] {
  const width = Math.min(size, lastPage);
  let start = current - Math.floor(width / 2);
  start = Math.max(1, Math.min(start, lastPage - width + 1));
  return Array.from({ length: width }, (_, index) => start + index);
}
