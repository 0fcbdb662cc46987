/** The task lists' card/list switch, kept in the `view` query parameter (spec §2; default card). */
export type ViewMode = 'card' | 'list';

export const VIEW_PARAM = 'view';

export function parseViewMode(value: string | null): ViewMode {
  return value === 'list' ? 'list' : 'card';
}

/** The parameters with the view set; card, the default, is left out of the URL. */
export function withViewMode(params: URLSearchParams, view: ViewMode): URLSearchParams {
  const next = new URLSearchParams(params);
  if (view === 'card') next.delete(VIEW_PARAM);
  else next.set(VIEW_PARAM, view);
  return next;
}
