import { paramIdSchema, type SortOrder, sortOrders } from '@cdms/contract';
import { useSearchParams } from 'react-router';
import { PAGE_PARAM, parsePageParam } from '../components/pagination.tsx';
import { isCalendarDate } from './date-text.ts';

/**
 * A list's state — filters, sort, page size and page — lives in the URL, so a link (from the
 * dashboard's counts, the subject-info popup) or a reload shows the same list. Every list page
 * declares its parameters once with `defineListParams` and reads and changes them through
 * `useListState`; the rules they share live here:
 *
 * - a value the server would refuse (a hand-edited URL) is dropped when read, never sent;
 * - defaults are left out of the URL, and parameters that are not the list's (menu-type) are kept;
 * - sort and order travel together: a list sorted other than by default names both;
 * - any change of filter, sort or size starts on page 1 (the old page means nothing in the new list).
 */

/** One value of a list as one URL parameter. */
export interface ListParam<T> {
  /** The URL's name of the parameter, when it is not the value's. */
  name?: string;
  /** The value the parameter's text asks for, or the default. */
  read(raw: string | null): T;
  /** The parameter's text, or null to leave the parameter out (the default). */
  write(value: T): string | null;
}

/** The value among `allowed` the parameter names, or the fallback. */
export function oneOf<T extends string | number>(allowed: readonly T[], raw: string | null, fallback: T): T {
  return allowed.find((value) => String(value) === raw) ?? fallback;
}

/** An id (a site's, a user's) as the API reads it (the contract's id schema: canonical decimal, int4), or null for any. */
function idOf(raw: string | null): number | null {
  const parsed = paramIdSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** A search text: trimmed and cut to what the API accepts. */
function searchText(raw: string | null, max = 100): string {
  return (raw ?? '').trim().slice(0, max);
}

/** The kinds of list parameter. */
export const param = {
  /** One of a fixed set (state, kind, sort key, page size); the default is left out. */
  oneOf<T extends string | number>(allowed: readonly T[], fallback: T): ListParam<T> {
    return {
      read: (raw) => oneOf(allowed, raw, fallback),
      write: (value) => (value === fallback ? null : String(value)),
    };
  },
  /** A sort order, written with its sort key (see `defineListParams`). */
  order(fallback: SortOrder): ListParam<SortOrder> {
    return param.oneOf(sortOrders, fallback);
  },
  /** An id (a site, a user, a subject); null is "any". */
  id(name?: string): ListParam<number | null> {
    return { name, read: idOf, write: (value) => (value === null ? null : String(value)) };
  },
  /** A search text, trimmed; '' is "any". */
  text(max = 100): ListParam<string> {
    return { read: (raw) => searchText(raw, max), write: (value) => value.trim() || null };
  },
  /** A YYYY-MM-DD day that exists; '' is open-ended. */
  date(): ListParam<string> {
    return { read: (raw) => (raw && isCalendarDate(raw) ? raw : ''), write: (value) => value || null };
  },
  /** A text matching `pattern` (a definition key, an event type); '' is "any". */
  matching(pattern: RegExp): ListParam<string> {
    return { read: (raw) => (raw !== null && pattern.test(raw) ? raw : ''), write: (value) => value || null };
  },
  /** The page number; page 1 is left out. */
  page(): ListParam<number> {
    return { read: parsePageParam, write: (value) => (value > 1 ? String(value) : null) };
  },
};

/** A period that ends before it starts (the server would refuse it) keeps only its start. */
export function periodInOrder<V extends { from: string; to: string }>(values: V): V {
  return values.from && values.to && values.to < values.from ? { ...values, to: '' } : values;
}

type ParamsOf<V> = { [K in keyof V]: ListParam<V[K]> };

/** How a list's values are read from and written to the URL. */
export interface ListParams<V> {
  read(params: URLSearchParams): V;
  /**
   * The URL of changed values, keeping parameters that are not the list's (menu-type). The page is
   * dropped unless given (any change of filter, sort or size starts on page 1); a value left
   * undefined is left out.
   */
  write(current: URLSearchParams, values: Partial<V>): URLSearchParams;
}

/**
 * A list's parameters, named as the URL (and the API) names them unless a parameter says otherwise,
 * written in this order. `mend` corrects values that are fine alone but not together (a period
 * ending before it starts, a form without its visit), on the way in and out.
 */
export function defineListParams<V extends object>(
  params: ParamsOf<V>,
  mend: (values: V) => V = (values) => values,
): ListParams<V> {
  const keys = Object.keys(params) as (keyof V & string)[];
  const nameOf = (key: keyof V & string) => params[key].name ?? key;
  return {
    read(search) {
      const values = {} as V;
      for (const key of keys) values[key] = params[key].read(search.get(nameOf(key)));
      return mend(values);
    },
    write(current, given) {
      // Handed whole values but for the page, so they can be mended as read ones are.
      const values: Partial<V> = mend({ ...given } as V);
      const texts: Record<string, string | null> = {};
      for (const key of keys) {
        const value = values[key];
        texts[key] = value === undefined ? null : params[key].write(value);
      }
      // A sort other than the default names both key and order, so the URL reads unambiguously.
      if ('sort' in values && 'order' in values && (texts.sort || texts.order)) {
        texts.sort = String(values.sort);
        texts.order = String(values.order);
      }
      const next = new URLSearchParams(current);
      next.delete(PAGE_PARAM);
      for (const key of keys) {
        next.delete(nameOf(key));
        const text = texts[key];
        if (text) next.set(nameOf(key), text);
      }
      return next;
    },
  };
}

/**
 * A list page's state from the URL: the values, and `apply` to change some of them — back on page 1,
 * unless `keepPage` (unfolding a row changes no list). `searchParams` is the whole URL query, for the
 * parameters that are not the list's (menu-type).
 */
export function useListState<V extends object>(list: ListParams<V>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = list.read(searchParams);
  function apply(change: Partial<V>, options: { keepPage?: boolean } = {}) {
    const page = options.keepPage ? {} : { [PAGE_PARAM]: undefined };
    setSearchParams((current) => list.write(current, { ...values, ...change, ...page }));
  }
  return { values, apply, searchParams };
}

/**
 * Only a filter panel's fields (the keys of `empty`) of a list's applied filters: the panel keeps them
 * in its own state, and the sort, page and size they came with would otherwise go back into the URL,
 * stale, with the next search.
 */
export function panelFieldsOf<Fields extends object>(applied: Fields, empty: Fields): Fields {
  const fields = { ...empty };
  for (const key of Object.keys(empty) as (keyof Fields)[]) fields[key] = applied[key];
  return fields;
}

/**
 * A filter panel's React key: the applied values of its fields (the keys of `empty`). The panel is
 * remounted when the URL's filters change (back/forward, a link), so its form shows what is applied;
 * a new page, sort or size leaves it as it is.
 */
export function filterPanelKey<Fields extends object>(applied: Fields, empty: Fields): string {
  return Object.values(panelFieldsOf(applied, empty))
    .map((value) => String(value ?? ''))
    .join('|');
}

/**
 * The page and size of a list's query string to the server; left out (`paged` false) for a
 * download, which takes every row the filters match.
 */
export function setPageParams(
  params: URLSearchParams,
  list: { page: number; size: number },
  paged: boolean,
): void {
  if (!paged) return;
  params.set('page', String(list.page));
  params.set('size', String(list.size));
}
