import type { AmendmentQuestion, AmendmentResponse, AmendmentSite } from '@cdms/contract';
import type { AmendmentDeclarations } from '@cdms/study';

/**
 * The declarations of a draft amendment as the page changes them: an answer to a change-set question
 * adds one, a removal takes one out. Pure, so the page only sends what these return (the PUT carries
 * the whole set: a declaration left out is gone).
 */

export type DeclarationKind = keyof AmendmentDeclarations;

/** One declaration made so far, addressed by its list and place so it can be taken out again. */
export type DeclarationEntry = {
  [Kind in DeclarationKind]: {
    kind: Kind;
    index: number;
    value: NonNullable<AmendmentDeclarations[Kind]>[number];
  };
}[DeclarationKind];

/** How a rename-or-replace question is answered. */
export type RenameOrReplace = 'rename' | 'replace';

const KINDS: readonly DeclarationKind[] = [
  'formRenames',
  'itemRenames',
  'codeMappings',
  'typeConversions',
  'replacements',
];

/** The server checked them against the study package's schema when they were written. */
export function declarationsOf(response: AmendmentResponse): AmendmentDeclarations {
  return response.declarations as AmendmentDeclarations;
}

/** Every declaration, list by list, in the order they were made. */
export function declarationEntries(declarations: AmendmentDeclarations): DeclarationEntry[] {
  const entries: DeclarationEntry[] = [];
  for (const kind of KINDS)
    (declarations[kind] ?? []).forEach((value, index) => {
      entries.push({ kind, index, value } as DeclarationEntry);
    });
  return entries;
}

/** The declarations without one entry; a list left empty is left out (the server's "none"). */
export function withoutDeclaration(
  declarations: AmendmentDeclarations,
  entry: Pick<DeclarationEntry, 'kind' | 'index'>,
): AmendmentDeclarations {
  const next: AmendmentDeclarations = { ...declarations };
  const rest = (declarations[entry.kind] ?? []).filter((_, index) => index !== entry.index);
  if (rest.length > 0) Object.assign(next, { [entry.kind]: rest });
  else delete next[entry.kind];
  return next;
}

/** A list with one more declaration. */
function appended<Kind extends DeclarationKind>(
  declarations: AmendmentDeclarations,
  kind: Kind,
  value: NonNullable<AmendmentDeclarations[Kind]>[number],
): AmendmentDeclarations {
  return { ...declarations, [kind]: [...(declarations[kind] ?? []), value] };
}

/**
 * The answer to a rename-or-replace question: a rename moves the values to the added element
 * (keys: the live one `from`, the next one `to`); a replacement retires the removed one's values.
 */
export function answerRenameOrReplace(
  declarations: AmendmentDeclarations,
  question: Extract<AmendmentQuestion, { code: 'formRenameOrReplace' | 'itemRenameOrReplace' }>,
  answer: RenameOrReplace,
): AmendmentDeclarations {
  const { removed, added } = question;
  if (question.code === 'itemRenameOrReplace')
    return answer === 'rename'
      ? appended(declarations, 'itemRenames', { form: question.form, from: removed, to: added })
      : appended(declarations, 'replacements', { form: question.form, removed, added });
  return answer === 'rename'
    ? appended(declarations, 'formRenames', { from: removed, to: added })
    : appended(declarations, 'replacements', { removed, added });
}

/**
 * The codes of a list mapped old → new: merged into the list's mapping when it has one (an earlier
 * answer for other codes stays), else a new mapping.
 */
export function answerCodeMapping(
  declarations: AmendmentDeclarations,
  codeList: string,
  map: Record<string, string>,
): AmendmentDeclarations {
  const mappings = declarations.codeMappings ?? [];
  if (!mappings.some((mapping) => mapping.codeList === codeList))
    return appended(declarations, 'codeMappings', { codeList, map });
  return {
    ...declarations,
    codeMappings: mappings.map((mapping) =>
      mapping.codeList === codeList ? { codeList, map: { ...mapping.map, ...map } } : mapping,
    ),
  };
}

/** An item's values converted to the next version's type. */
export function answerConversion(
  declarations: AmendmentDeclarations,
  question: Extract<AmendmentQuestion, { code: 'conversionNeeded' }>,
): AmendmentDeclarations {
  // The question's `to` is the next version's item type; the server checks it is one it converts to.
  return appended(declarations, 'typeConversions', {
    form: question.form,
    item: question.item,
    to: question.to as NonNullable<AmendmentDeclarations['typeConversions']>[number]['to'],
  });
}

/** The sites' dates as a request names them: every site, null where it has no approval date. */
export function siteDates(sites: readonly AmendmentSite[]): { siteId: number; effectiveOn: string | null }[] {
  return sites.map((site) => ({ siteId: site.siteId, effectiveOn: site.effectiveOn }));
}
