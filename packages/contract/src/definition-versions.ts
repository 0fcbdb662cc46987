import { z } from 'zod';

/**
 * The versions of a study's definition and the comparison of any two (issue 48 item 7): what was
 * added, removed, changed and moved between them, in the page and as a PDF.
 *
 * Routes (members of the study):
 *   GET /api/studies/:studyId/definition-versions
 *   GET /api/studies/:studyId/definition-versions/compare?from=<v>&to=<v>&lang=ko|en
 *   GET /api/studies/:studyId/definition-versions/compare.pdf?from=<v>&to=<v>&lang=ko|en
 * `lang` defaults to the request's Accept-Language. A version the study does not have is a 404
 * (`definition_version_not_found`).
 */

/** A definition's version as the model writes it (`1.2.0`). */
export const definitionVersionSchema = z
  .string()
  .max(40)
  .regex(/^\d+\.\d+\.\d+$/);

/** One version: when it was written, its content hash, and how big it is. */
export const definitionVersionSummarySchema = z.object({
  version: z.string(),
  /** ISO 8601: when this version's text in force was written. */
  createdAt: z.string(),
  /** SHA-256 (hex) of its canonical JSON, as the audit trail records it. */
  contentHash: z.string(),
  counts: z.object({
    visits: z.number().int(),
    forms: z.number().int(),
    items: z.number().int(),
  }),
});
export type DefinitionVersionSummary = z.infer<typeof definitionVersionSummarySchema>;

/** Every version, oldest first. */
export const definitionVersionListSchema = z.object({
  versions: z.array(definitionVersionSummarySchema),
});
export type DefinitionVersionList = z.infer<typeof definitionVersionListSchema>;

export const definitionComparisonQuerySchema = z.object({
  from: definitionVersionSchema,
  to: definitionVersionSchema,
  lang: z.enum(['ko', 'en']).optional(),
});
export type DefinitionComparisonQuery = z.infer<typeof definitionComparisonQuerySchema>;

export const diffLineKinds = ['added', 'removed', 'changed', 'moved'] as const;
export type DiffLineKindName = (typeof diffLineKinds)[number];

/** One difference between two definitions, in one language (packages/study version-diff `describeDiff`). */
export const definitionDiffLineSchema = z.object({
  /** Where the line is about, as keys (`forms/vitalSigns/items/pulse/unit`). */
  path: z.string(),
  kind: z.enum(diffLineKinds),
  text: z.string(),
});
export type DefinitionDiffLine = z.infer<typeof definitionDiffLineSchema>;

const diffCountSchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  moved: z.number().int(),
});

/** The comparison of two versions: both versions, the counts per kind, and the lines in one language. */
export const definitionComparisonSchema = z.object({
  language: z.enum(['ko', 'en']),
  from: definitionVersionSummarySchema,
  to: definitionVersionSummarySchema,
  summary: z.object({
    visits: diffCountSchema,
    forms: diffCountSchema,
    items: diffCountSchema,
    codeLists: diffCountSchema,
    checks: diffCountSchema,
  }),
  /** In the order the definition reads (packages/study version-diff `describeDiff`). */
  lines: z.array(definitionDiffLineSchema),
});
export type DefinitionComparison = z.infer<typeof definitionComparisonSchema>;

/** The addresses of a comparison, for the page and its download link. */
export function definitionComparisonPath(
  studyId: number,
  query: { from: string; to: string; lang: 'ko' | 'en' },
  format: 'json' | 'pdf',
): string {
  const search = `from=${encodeURIComponent(query.from)}&to=${encodeURIComponent(query.to)}&lang=${query.lang}`;
  return `/api/studies/${studyId}/definition-versions/${format === 'pdf' ? 'compare.pdf' : 'compare'}?${search}`;
}
