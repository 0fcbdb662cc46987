import type { LocalizedText } from './localized-text.ts';

/**
 * The elements of a design a review comment may be about, each named by keys so a comment stays on its
 * element when others move: `study`, `visit:V1`, `form:DM`, `form:DM/item:AGE`, `codeList:SEX`. The
 * designer lists them to choose from and the server checks a comment's against the draft, so both read
 * them here. A draft may still have problems, so the document is read as loosely as it may be written.
 */
export type DesignElement =
  | { ref: 'study'; kind: 'study' }
  | { ref: string; kind: 'visit'; key: string; label: LocalizedText | undefined }
  | { ref: string; kind: 'form'; key: string; label: LocalizedText | undefined }
  | {
      ref: string;
      kind: 'item';
      key: string;
      label: LocalizedText | undefined;
      form: { key: string; label: LocalizedText | undefined };
    }
  | { ref: string; kind: 'codeList'; key: string };

interface Keyed {
  key: string;
  label: LocalizedText | undefined;
  raw: Record<string, unknown>;
}

/** The entries of a list that have a text key, with their label when they have one. */
function keyedEntries(list: unknown): Keyed[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    if (entry === null || typeof entry !== 'object') return [];
    const raw = entry as Record<string, unknown>;
    if (typeof raw.key !== 'string') return [];
    const label = raw.label as LocalizedText | undefined;
    return [{ key: raw.key, label: label && typeof label === 'object' ? label : undefined, raw }];
  });
}

/** Every element of a design document, in the order it reads: the study, visits, forms with their items, code lists. */
export function designElementsOf(document: unknown): DesignElement[] {
  const root = document !== null && typeof document === 'object' ? (document as Record<string, unknown>) : {};
  const elements: DesignElement[] = [{ ref: 'study', kind: 'study' }];
  for (const visit of keyedEntries(root.visits))
    elements.push({ ref: `visit:${visit.key}`, kind: 'visit', key: visit.key, label: visit.label });
  for (const form of keyedEntries(root.forms)) {
    elements.push({ ref: `form:${form.key}`, kind: 'form', key: form.key, label: form.label });
    const sections = Array.isArray(form.raw.sections) ? (form.raw.sections as unknown[]) : [];
    for (const section of sections) {
      const items =
        section !== null && typeof section === 'object' ? (section as { items?: unknown }).items : [];
      for (const item of keyedEntries(items))
        elements.push({
          ref: `form:${form.key}/item:${item.key}`,
          kind: 'item',
          key: item.key,
          label: item.label,
          form: { key: form.key, label: form.label },
        });
    }
  }
  for (const codeList of keyedEntries(root.codeLists))
    elements.push({ ref: `codeList:${codeList.key}`, kind: 'codeList', key: codeList.key });
  return elements;
}
