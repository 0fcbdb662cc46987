import { z } from 'zod';
import { definitionDiffLineSchema } from './definition-versions.ts';
import { localizedSchema } from './localized.ts';
import { roleSchema } from './roles.ts';
import { signCasebookRequestSchema } from './signatures.ts';

/**
 * A study's state (issue 45): `design` while its designers (DM, ADMIN) build it — nobody else sees
 * it and no subject can be registered —, `active` once an administrator approved it for data entry
 * (go live), `ended` when closed.
 */
export const studyStatuses = ['design', 'active', 'ended'] as const;
export const studyStatusSchema = z.enum(studyStatuses);
export type StudyStatus = z.infer<typeof studyStatusSchema>;

/** What a study studies: the product.md kinds a sponsor registers. */
export const studyKinds = ['drug', 'device', 'observational'] as const;
export const studyKindSchema = z.enum(studyKinds);
export type StudyKind = z.infer<typeof studyKindSchema>;

export const menuTypeSchema = z.enum(['PI', 'CRA']);
export type MenuType = z.infer<typeof menuTypeSchema>;

/** A study as the task lists show it to one user. */
export const studySummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.string(),
  content: z.string(),
  status: studyStatusSchema,
  /** Registration date, YYYY-MM-DD. */
  registeredOn: z.string(),
  /** The menu sets this user may open the study with (their roles' sets the study offers). */
  approaches: z.array(menuTypeSchema),
  roles: z.array(roleSchema),
});
export type StudySummary = z.infer<typeof studySummarySchema>;

/** `active` lists the studies in use and those in design (a designer's work list); `ended` the closed ones. */
export const studyListQuerySchema = z.object({
  status: z.enum(['active', 'ended']).default('active'),
  search: z.string().trim().max(100).optional(),
});

export const studyListResponseSchema = z.object({ studies: z.array(studySummarySchema) });

/** One reason a definition document was refused: where (a JSON path) and why, in both languages. */
export const definitionProblemSchema = z.object({
  path: z.string(),
  message: localizedSchema,
});
export type DefinitionProblem = z.infer<typeof definitionProblemSchema>;

/** A study's current definition as designers download it. */
export const studyDefinitionAnswerSchema = z.object({
  studyId: z.number().int(),
  version: z.string(),
  /** SHA-256 of the stored document (hex): the audit trail records the same. */
  contentHash: z.string(),
  definition: z.unknown(),
});

/**
 * Go live: an administrator approves the design with an e-signature — their password, and their
 * authenticator code when they have two-factor sign-in (as a casebook signature).
 */
export const goLiveRequestSchema = signCasebookRequestSchema;

export const goLiveResponseSchema = z.object({
  status: z.literal('active'),
  version: z.string(),
  contentHash: z.string(),
});

export const definitionUploadResponseSchema = z.object({ version: z.string(), contentHash: z.string() });

/**
 * The formats a study's design can be imported from (issue 47): REDCap's data dictionary (CSV),
 * CDISC ODM 1.3.x metadata (XML, ours or another system's), the workbook (XLSX) and the definition
 * document itself (JSON).
 */
export const definitionImportFormats = [
  'redcapDictionary',
  'odmMetadata',
  'workbook',
  'definitionJson',
] as const;
export type DefinitionImportFormat = (typeof definitionImportFormats)[number];

/** An import's size limit, as a definition document's: a 3,000-field dictionary is ~1 MB. */
export const DEFINITION_IMPORT_MAX_CHARACTERS = 16 * 1024 * 1024;

/** A design file sent for a preview. */
export const definitionImportRequestSchema = z.strictObject({
  format: z.enum(definitionImportFormats),
  /** The file's text (CSV, XML or JSON); a workbook, which is binary, as base64. */
  file: z.string().min(1).max(DEFINITION_IMPORT_MAX_CHARACTERS),
  /** REDCap's instrument–event mapping CSV: the schedule (REDCap dictionaries only). */
  eventMapping: z.string().max(DEFINITION_IMPORT_MAX_CHARACTERS).optional(),
  /** The language the file's labels are written in. */
  language: z.enum(['ko', 'en']),
});
export type DefinitionImportRequest = z.infer<typeof definitionImportRequestSchema>;

/**
 * The same file sent again to confirm it, with the preview's content hash: the server refuses a
 * confirmation whose result is not what was shown.
 */
export const definitionImportConfirmSchema = definitionImportRequestSchema.extend({
  contentHash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type DefinitionImportConfirm = z.infer<typeof definitionImportConfirmSchema>;

export const definitionImportProblemSchema = z.object({
  severity: z.enum(['error', 'warning', 'note']),
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  field: z.string().nullable(),
  message: localizedSchema,
});
export type DefinitionImportProblem = z.infer<typeof definitionImportProblemSchema>;

const addedAndRemoved = z.object({ added: z.array(z.string()), removed: z.array(z.string()) });

/** What an import would create, and change in the study's current version, before anything is written. */
export const definitionImportPreviewSchema = z.object({
  /** False while a problem is an error: nothing can be confirmed. */
  importable: z.boolean(),
  /** Whether a confirmation would be taken: importable, and the study still in design. */
  canConfirm: z.boolean(),
  /** The definition's content hash, to send back when confirming. */
  contentHash: z.string(),
  version: z.string(),
  counts: z.object({
    visits: z.number().int(),
    forms: z.number().int(),
    items: z.number().int(),
    codeLists: z.number().int(),
    logic: z.number().int(),
  }),
  /**
   * Every difference from the current version, in the user's language: windows, checks, outcomes,
   * parameters and every field included (empty for a study without a version: everything is new).
   */
  differences: z.array(definitionDiffLineSchema),
  /** Against the current version (everything added for a study without one). */
  changes: z.object({
    visits: addedAndRemoved,
    forms: addedAndRemoved,
    codeLists: addedAndRemoved.extend({ changed: z.array(z.string()) }),
    items: addedAndRemoved.extend({
      changed: z.array(z.object({ item: z.string(), changes: z.array(z.string()) })),
    }),
  }),
  problems: z.array(definitionImportProblemSchema),
});
export type DefinitionImportPreview = z.infer<typeof definitionImportPreviewSchema>;
