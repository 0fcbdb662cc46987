import {
  AUDIT_TEXT_MAX,
  AUDIT_TRAIL_PAGE_SIZES,
  type AuditTrailSort,
  auditTrailSorts,
  type Role,
  roles,
} from '@cdms/contract';
import { defineListParams, param, periodInOrder, setPageParams } from '../../../lib/list-state.ts';

/**
 * The audit page's filters, sort and page size as they live in the URL (issue 16): the URL is the
 * state, so reloading or sharing shows the same records. Parameter names are the API's
 * (auditTrailQuerySchema); defaults are left out; values the server would refuse are dropped when
 * read, never sent.
 */

export type AuditPageSize = (typeof AUDIT_TRAIL_PAGE_SIZES)[number];

export interface AuditFilters {
  /** YYYY-MM-DD (UTC+9 days), '' for open-ended. */
  from: string;
  to: string;
  /** Null: anyone / every site / every subject. */
  userId: number | null;
  role: Role | '';
  siteId: number | null;
  subjectId: number | null;
  eventType: string;
  visitKey: string;
  formKey: string;
  itemKey: string;
  text: string;
  sort: AuditTrailSort;
  page: number;
  size: AuditPageSize;
}

/** What the filter panel edits (user and subject are picked from the table's rows). */
export type AuditFilterFields = Omit<AuditFilters, 'sort' | 'page' | 'size'>;

// Definition keys, and the unscheduled visits' `unscheduled-<n>` (issue 19).
const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;
const EVENT_TYPE_PATTERN = /^(?=.{1,100}$)[a-z_]+\.[a-z_]+$/;

/** Defaults left out of the URL. A range whose end comes before its start keeps only its start. */
export const auditListParams = defineListParams<AuditFilters>(
  {
    from: param.date(),
    to: param.date(),
    userId: param.id(),
    role: param.oneOf<Role | ''>(roles, ''),
    siteId: param.id(),
    subjectId: param.id(),
    eventType: param.matching(EVENT_TYPE_PATTERN),
    visitKey: param.matching(KEY_PATTERN),
    formKey: param.matching(KEY_PATTERN),
    itemKey: param.matching(KEY_PATTERN),
    text: param.text(AUDIT_TEXT_MAX),
    sort: param.oneOf(auditTrailSorts, 'newest'),
    size: param.oneOf(AUDIT_TRAIL_PAGE_SIZES, 20),
    page: param.page(),
  },
  periodInOrder,
);

export const DEFAULT_AUDIT_FILTERS: AuditFilters = auditListParams.read(new URLSearchParams());

export const EMPTY_AUDIT_FILTER_FIELDS: AuditFilterFields = {
  from: '',
  to: '',
  userId: null,
  role: '',
  siteId: null,
  subjectId: null,
  eventType: '',
  visitKey: '',
  formKey: '',
  itemKey: '',
  text: '',
};

/** The filters that are set, as parameters (sort, page and size left to the caller). */
function filterParams(filters: AuditFilterFields, into: URLSearchParams): void {
  if (filters.from) into.set('from', filters.from);
  if (filters.to) into.set('to', filters.to);
  if (filters.userId !== null) into.set('userId', String(filters.userId));
  if (filters.role) into.set('role', filters.role);
  if (filters.siteId !== null) into.set('siteId', String(filters.siteId));
  if (filters.subjectId !== null) into.set('subjectId', String(filters.subjectId));
  if (filters.eventType) into.set('eventType', filters.eventType);
  if (filters.visitKey) into.set('visitKey', filters.visitKey);
  if (filters.formKey) into.set('formKey', filters.formKey);
  if (filters.itemKey) into.set('itemKey', filters.itemKey);
  const text = filters.text.trim();
  if (text) into.set('text', text);
}

/** The server's query string: the filters and sort; page and size only for the page, not the CSV. */
export function auditQueryString(filters: AuditFilters, paged = true): string {
  const params = new URLSearchParams();
  filterParams(filters, params);
  params.set('sort', filters.sort);
  setPageParams(params, filters, paged);
  return params.toString();
}
