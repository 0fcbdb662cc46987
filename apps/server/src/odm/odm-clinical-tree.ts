import type { ExportAuditRow, ExportQuery, ExportSubject, ExportValueRow } from './load-export-batch.ts';
import type { ExportHeader } from './load-export-header.ts';
import { type OdmItemDef, type OdmMetadata, odmEventOf, oids } from './odm-metadata.ts';

/**
 * A subject's stored data arranged as ODM nests it — event → form → item group (repeat) → item —
 * with values already in ODM's text forms and, when asked, the audit record of each value. Both
 * writers (1.3.2 and 2.0) print this tree; building it once keeps their content the same.
 */

export interface OdmAudit {
  userOid: string;
  locationOid: string;
  /** UTC, ISO 8601 with milliseconds and `Z`. */
  dateTimeStamp: string;
  reason?: string;
}

export interface OdmItemData {
  oid: string;
  /** The stored key path, `visit.form.item` or `visit.form.group[row].column` (query targets). */
  path: string;
  /** One text per value; several for a multiple choice. */
  values: string[];
  audit?: OdmAudit;
  queries: ExportQuery[];
  /** Its place among its group's ItemRefs (the data follow the definition's order). */
  order: number;
}

export interface OdmItemGroupData {
  oid: string;
  /** 1-based row number of a repeating group's row. */
  repeatKey?: string;
  items: OdmItemData[];
}

export interface OdmFormData {
  oid: string;
  formKey: string;
  groups: OdmItemGroupData[];
  /** Queries on the whole form or on an item without a value now. */
  queries: ExportQuery[];
}

export interface OdmEventData {
  oid: string;
  visitKey: string;
  /** An unscheduled visit's repeat key (StudyEventRepeatKey): `unscheduled-2` is event SE.unscheduled, 2. */
  repeatKey?: string;
  forms: OdmFormData[];
}

export interface OdmSubjectData {
  subjectKey: string;
  locationOid: string;
  events: OdmEventData[];
  signature?: { userOid: string; locationOid: string; signatureOid: string; dateTimeStamp: string };
  /** Queries on a form the subject has no data in. */
  queries: ExportQuery[];
  valueCount: number;
  /** Every query of the subject, wherever it is placed. */
  queryCount: number;
}

/** Stored JSON → ODM value texts (ISO dates as they are, times with seconds, booleans as xs:boolean). */
export function odmValueTexts(item: OdmItemDef, value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap((entry) => odmValueTexts(item, entry));
  if (typeof value === 'boolean') return [value ? 'true' : 'false'];
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') {
    if (item.dataType === 'time' && /^\d{2}:\d{2}$/.test(value)) return [`${value}:00`];
    return [value];
  }
  return [JSON.stringify(value)];
}

export const userOidOf = (userId: number | null) => (userId === null ? oids.systemUser : oids.user(userId));

/** The key a meaning is known by: its two texts, whatever order the database gave the keys in. */
export function meaningKey(meaning: unknown): string {
  const text = meaning as { ko?: unknown; en?: unknown };
  return JSON.stringify([text.ko ?? null, text.en ?? null]);
}

/** SignatureDef OIDs per distinct signature meaning: SD.CASEBOOK.1, .2, … in the header's order. */
export function signatureDefOids(header: ExportHeader): Map<string, string> {
  return new Map(
    header.signatureMeanings.map((meaning, index) => [
      meaningKey(meaning),
      `${oids.signatureDef}.${index + 1}`,
    ]),
  );
}

/**
 * A time as ODM writes it (UTC, ISO 8601). The values of one save share their time, and rows come
 * form by form, so the last answer is kept: formatting a date per value was a twentieth of an export.
 */
let lastTime = Number.NaN;
let lastText = '';
function isoUtc(date: Date): string {
  const time = date.getTime();
  if (time !== lastTime) {
    lastTime = time;
    lastText = date.toISOString();
  }
  return lastText;
}

/** `row[index][column]` of a stored repeating group's JSON, as JSON text for comparing. */
function cellOf(value: unknown, index: number, column: string): string {
  const rows = (value as { value?: unknown } | null)?.value;
  if (!Array.isArray(rows)) return 'null';
  const row = rows[index] as Record<string, unknown> | undefined;
  return JSON.stringify(row?.[column] ?? null);
}

/** Shared by every value without a query or a change record; never added to. */
const NO_QUERIES: ExportQuery[] = [];
const NO_HISTORY: ExportAuditRow[] = [];

interface SubjectForm {
  visitKey: string;
  formKey: string;
  rows: ExportValueRow[];
  rank: { event: number; repeat: number; form: number };
}

/** A form's place in the document: its event's, then the visit's repeat (unscheduled), then the form's in the event. */
function formRank(metadata: OdmMetadata, row: ExportValueRow): SubjectForm['rank'] {
  const { eventKey, repeatKey } = odmEventOf(row.visitKey);
  const eventIndex = metadata.events.findLastIndex((event) => event.key === eventKey);
  return {
    event: eventIndex === -1 ? 0 : eventIndex,
    repeat: Number(repeatKey ?? 0),
    form:
      metadata.events.find((event) => event.key === eventKey)?.formOids.indexOf(oids.form(row.formKey)) ?? 0,
  };
}

/** One ItemData, the audit record only when there is one. */
function itemData(
  oid: string,
  path: string,
  values: string[],
  audit: OdmAudit | undefined,
  queries: ExportQuery[],
  order: number,
): OdmItemData {
  return audit ? { oid, path, values, audit, queries, order } : { oid, path, values, queries, order };
}

export interface TreeContext {
  metadata: OdmMetadata;
  siteCodes: Map<number, string>;
  signatureOids: Map<string, string>;
  withAudit: boolean;
  /**
   * Leave out every value of an item the definition flags as personal data (issue 47): no ItemData
   * at all, so neither its value nor its audit record is in the file, and it is not counted.
   */
  maskPersonalData: boolean;
}

/** Whether an item's values are withheld from this export: the definition says which items are personal. */
export function isMasked(itemDef: OdmItemDef, maskPersonalData: boolean): boolean {
  return maskPersonalData && itemDef.item.personalData === true;
}

export function buildSubjectData(subject: ExportSubject, context: TreeContext): OdmSubjectData {
  const { metadata } = context;
  const locationOid = oids.location(context.siteCodes.get(subject.siteId) ?? String(subject.siteId));

  // Audit records by stored path, newest last.
  const auditByPath = new Map<string, ExportAuditRow[]>();
  for (const row of subject.audit) {
    const list = auditByPath.get(row.path) ?? [];
    list.push(row);
    auditByPath.set(row.path, list);
  }
  const auditOf = (row: ExportAuditRow | undefined, fallback: ExportValueRow): OdmAudit | undefined => {
    if (!context.withAudit) return undefined;
    // No change record (a derived value, data copied in by SQL): who and when the row itself says.
    if (!row) {
      if (!fallback.updatedAt)
        throw new Error('A value row was read without its writer for an audit export.');
      return {
        userOid: userOidOf(fallback.updatedBy ?? null),
        locationOid,
        dateTimeStamp: isoUtc(fallback.updatedAt),
      };
    }
    return {
      userOid: userOidOf(row.userId),
      locationOid,
      dateTimeStamp: isoUtc(row.at),
      ...(row.reason ? { reason: row.reason } : {}),
    };
  };

  // Queries by the path they target; what finds no value is kept at the form.
  const queriesByPath = new Map<string, ExportQuery[]>();
  for (const thread of subject.queries) {
    const path = thread.query.item_path || `${thread.query.visit_key}.${thread.query.form_key}`;
    const list = queriesByPath.get(path) ?? [];
    list.push(thread);
    queriesByPath.set(path, list);
  }
  const takeQueries = (path: string): ExportQuery[] => {
    // Most subjects have no query (and 1.3.2 reads none): no lookup, and one shared empty list,
    // which nothing adds to (a form's own queries go to the form's list).
    if (queriesByPath.size === 0) return NO_QUERIES;
    const found = queriesByPath.get(path) ?? [];
    queriesByPath.delete(path);
    return found;
  };
  const historyOf = (path: string): ExportAuditRow[] =>
    auditByPath.size === 0 ? NO_HISTORY : (auditByPath.get(path) ?? NO_HISTORY);

  // Values grouped by visit and form, each form's groups in the definition's order. A form's
  // values come one after another, so the form is looked up only when it changes; its place in the
  // document (event, repeat, form) is worked out once per form, not in every comparison of the sort.
  const forms = new Map<string, SubjectForm>();
  let current: SubjectForm | undefined;
  for (const row of subject.values) {
    if (current === undefined || current.visitKey !== row.visitKey || current.formKey !== row.formKey) {
      const key = `${row.visitKey}|${row.formKey}`;
      current = forms.get(key);
      if (!current) {
        current = { visitKey: row.visitKey, formKey: row.formKey, rows: [], rank: formRank(metadata, row) };
        forms.set(key, current);
      }
    }
    current.rows.push(row);
  }
  const events = new Map<string, OdmEventData>();
  let valueCount = 0;
  const sortedForms = [...forms.values()].sort(
    (a, b) => a.rank.event - b.rank.event || a.rank.repeat - b.rank.repeat || a.rank.form - b.rank.form,
  );
  for (const form of sortedForms) {
    // Plain groups by their OID, a repeating group's rows by OID and row.
    const groups = new Map<string, OdmItemGroupData>();
    const groupOf = (oid: string, repeatKey?: string) => {
      const key = repeatKey === undefined ? oid : `${oid}|${repeatKey}`;
      let group = groups.get(key);
      if (!group) {
        group = repeatKey === undefined ? { oid, items: [] } : { oid, repeatKey, items: [] };
        groups.set(key, group);
      }
      return group;
    };
    const places = metadata.placesOf(form.visitKey, form.formKey);
    const formPath = `${form.visitKey}.${form.formKey}.`;
    for (const row of form.rows) {
      const place = places?.get(row.itemKey);
      // A key the current definition no longer has cannot be described by its metadata: left out.
      if (!place) continue;
      const path = formPath + row.itemKey;
      const history = historyOf(path);
      if (place.kind === 'item') {
        if (isMasked(place.item, context.maskPersonalData)) continue;
        const values = odmValueTexts(place.item, row.value);
        if (values.length === 0) continue;
        const audit = auditOf(row.derived ? undefined : history[history.length - 1], row);
        groupOf(place.itemGroupOid).items.push(
          itemData(place.item.oid, path, values, audit, takeQueries(path), place.order),
        );
        valueCount += 1;
        continue;
      }
      const rows = Array.isArray(row.value) ? (row.value as Record<string, unknown>[]) : [];
      rows.forEach((cells, index) => {
        const group = groupOf(place.itemGroupOid, String(index + 1));
        for (const [columnKey, itemDef] of place.columns) {
          if (isMasked(itemDef, context.maskPersonalData)) continue;
          const values = odmValueTexts(itemDef, cells?.[columnKey]);
          if (values.length === 0) continue;
          // The last change that altered this cell is the one that set its value.
          const last = [...history]
            .reverse()
            .find(
              (change) => cellOf(change.before, index, columnKey) !== cellOf(change.after, index, columnKey),
            );
          const audit = auditOf(last, row);
          const cellPath = `${path}[${index}].${columnKey}`;
          const order = place.columnOrder.get(columnKey) ?? Number.MAX_SAFE_INTEGER;
          group.items.push(itemData(itemDef.oid, cellPath, values, audit, takeQueries(cellPath), order));
          valueCount += 1;
        }
      });
    }
    const formDef = metadata.forms.find((candidate) => candidate.key === form.formKey);
    const groupOrder = (oid: string) => formDef?.itemGroupOids.indexOf(oid) ?? 0;
    for (const group of groups.values()) group.items.sort((a, b) => a.order - b.order);
    const sortedGroups = [...groups.values()]
      .filter((group) => group.items.length > 0)
      .sort(
        (a, b) =>
          groupOrder(a.oid) - groupOrder(b.oid) || Number(a.repeatKey ?? 0) - Number(b.repeatKey ?? 0),
      );
    if (sortedGroups.length === 0) continue;
    let event = events.get(form.visitKey);
    if (!event) {
      const { eventKey, repeatKey } = odmEventOf(form.visitKey);
      event = {
        oid: oids.event(eventKey),
        visitKey: form.visitKey,
        ...(repeatKey !== undefined ? { repeatKey } : {}),
        forms: [],
      };
      events.set(form.visitKey, event);
    }
    event.forms.push({
      oid: oids.form(form.formKey),
      formKey: form.formKey,
      groups: sortedGroups,
      queries: [],
    });
  }

  // Queries not placed on a value: on their form when it is exported, else on the subject.
  const subjectQueries: ExportQuery[] = [];
  for (const threads of queriesByPath.values()) {
    for (const thread of threads) {
      const formData = events
        .get(thread.query.visit_key)
        ?.forms.find((candidate) => candidate.formKey === thread.query.form_key);
      if (formData) formData.queries.push(thread);
      else subjectQueries.push(thread);
    }
  }

  const signatureOid = subject.signature
    ? context.signatureOids.get(meaningKey(subject.signature.meaning))
    : undefined;
  return {
    subjectKey: subject.screeningNumber,
    locationOid,
    events: [...events.values()],
    ...(subject.signature && signatureOid
      ? {
          signature: {
            userOid: userOidOf(subject.signature.signedBy),
            locationOid,
            signatureOid,
            dateTimeStamp: isoUtc(subject.signature.signedAt),
          },
        }
      : {}),
    queries: subjectQueries,
    valueCount,
    queryCount: subject.queries.length,
  };
}
