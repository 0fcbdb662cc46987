// The study-definition model and rules engine live here (issue "Study definition and form engine").
// This package imports nothing of ours and does no I/O, so the browser and the server run the same rules.
export const STUDY_PACKAGE_VERSION = '0.1.0';

export {
  type AmendmentChange,
  type AmendmentChangeKind,
  type AmendmentChangeSet,
  type AmendmentQuestion,
  type AmendmentQuestionCode,
  type AmendmentRefusal,
  type AmendmentRefusalCode,
  amendmentChangeSet,
  type FormPlan,
  type ItemPlan,
  type ItemRef,
  type MigrationPlan,
} from './amendment/change-set.ts';
export { type ConversionKind, conversionKind, convertValue } from './amendment/conversions.ts';
export {
  type AmendmentDeclarations,
  amendmentDeclarationsSchema,
  type CodeMapping,
  codeMappingSchema,
  type FormRename,
  formRenameSchema,
  type ItemRename,
  itemRenameSchema,
  type Replacement,
  replacementSchema,
  type TypeConversion,
  typeConversionSchema,
} from './amendment/declarations.ts';
export {
  type ChangeLine,
  type DescribedChangeSet,
  describeChangeSet,
  type QuestionLine,
  type RefusalLine,
} from './amendment/describe-change-set.ts';
export { type MigratedForm, migrateFormValues } from './amendment/migrate-values.ts';
export {
  type DuplicateRecordGroup,
  type DuplicateRecordInput,
  type DuplicateRecordOptions,
  findDuplicateRecords,
} from './central-monitoring/duplicate-records.ts';
export { KOREAN_PUBLIC_HOLIDAY_NAMES, KOREAN_PUBLIC_HOLIDAYS } from './central-monitoring/korean-holidays.ts';
export {
  binomialUpperTailP,
  chiSquareP,
  MAD_TO_SD,
  mean,
  median,
  medianAbsoluteDeviation,
  normalTailP,
  robustZ,
  standardDeviation,
} from './central-monitoring/robust-statistics.ts';
export {
  type SeriesOutlier,
  type SeriesOutlierOptions,
  seriesOutliers,
  seriesScale,
} from './central-monitoring/series-outliers.ts';
export {
  compareSiteDistributions,
  type SiteDistributionFinding,
  type SiteDistributionOptions,
  type SiteValues,
} from './central-monitoring/site-distributions.ts';
export {
  type TerminalDigitOptions,
  type TerminalDigitReading,
  type TerminalDigitTest,
  terminalDigitPreference,
  terminalDigitTest,
} from './central-monitoring/terminal-digits.ts';
export {
  mondayBasedWeekday,
  type WeekdayFinding,
  type WeekdayOptions,
  type WeekdayVisit,
  weekdayCounts,
  weekdayPattern,
} from './central-monitoring/weekday-pattern.ts';
export {
  atcOfDrug,
  type CodingKind,
  DictionaryFormatError,
  MEDDRA_FILE_FIELDS,
  MEDDRA_REQUIRED_FILES,
  type MeddraCodePath,
  type MeddraDictionary,
  type MeddraFileName,
  type MeddraLlt,
  type MeddraPath,
  type MeddraPt,
  type MeddraSoc,
  type MeddraTerm,
  normalizeVerbatim,
  parseMeddraAscii,
  parseSynonymCsv,
  parseWhoDrugB3,
  pathsOfLlt,
  type Synonym,
  splitAsciiLine,
  uniqueMatch,
  WHODRUG_B3_LAYOUT,
  type WhoDrugAtc,
  type WhoDrugDictionary,
  type WhoDrugName,
} from './coding/index.ts';
export {
  compareDefinitions,
  type DefinitionComparison,
  type ItemChange,
} from './convert/compare-definitions.ts';
export { listOdmMetaDataVersions } from './convert/odm/list-odm-metadata-versions.ts';
export {
  CDMS_ODM_NAMESPACE,
  metadataOids as odmMetadataOids,
  ODM_NAMESPACE,
  UNSCHEDULED_EVENT_KEY,
} from './convert/odm/odm-metadata-names.ts';
export { readOdmMetadata } from './convert/odm/read-odm-metadata.ts';
export {
  type OdmDataType,
  type OdmRangeCheck,
  odmDataTypeOf,
  odmExtensionNamespace,
  odmRangeChecks,
  type WriteOdmMetadataOptions,
  writeOdmMetadata,
  writeOdmMetadataVersions,
  writeOdmStudyMetadata,
} from './convert/odm/write-odm-metadata.ts';
export {
  type DefinitionFile,
  type DefinitionFileFormat,
  type DefinitionFileOptions,
  type DefinitionFileRead,
  readDefinitionFile,
} from './convert/read-definition-file.ts';
export {
  type RedcapImport,
  type RedcapImportOptions,
  readRedcapDictionary,
} from './convert/redcap/read-redcap-dictionary.ts';
export {
  type ImportProblem,
  readDictionaryRows,
} from './convert/redcap/redcap-dictionary.ts';
export { type RedcapExport, writeRedcapDictionary } from './convert/redcap/write-redcap-dictionary.ts';
export {
  readDefinitionWorkbook,
  type WorkbookImport,
  type WorkbookImportOptions,
} from './convert/workbook/read-definition-workbook.ts';
export { writeDefinitionWorkbook } from './convert/workbook/write-definition-workbook.ts';
export { writeDefinitionWorkbookTemplate } from './convert/workbook/write-definition-workbook-template.ts';
export { XLSX_MEDIA_TYPE } from './convert/workbook/xlsx-package.ts';
export {
  escapeXmlAttribute,
  escapeXmlText,
  REPLACEMENT_CHARACTER,
  textElement,
  xmlAttributes,
  xmlSafeText,
} from './convert/xml-escape.ts';
export {
  AUDIOGRAM_AXIS_FREQUENCIES,
  AUDIOGRAM_DB_RANGE,
  type AudiogramBand,
  type AudiogramConduction,
  type AudiogramEarSource,
  type AudiogramLayout,
  type AudiogramPoint,
  audiogramBandSpan,
  audiogramDbTicks,
  audiogramEarOf,
  audiogramLayout,
  audiogramPoints,
  audiogramXFraction,
  audiogramYFraction,
} from './engine/audiogram.ts';
export { addDays, daysBetween, isValidDate, isValidTime, parseDate, yearsBetween } from './engine/dates.ts';
export {
  type ExpressionContext,
  evaluateExpression,
  holds,
  isEmptyValue,
  resolveRef,
  roundTo,
} from './engine/evaluate-expression.ts';
export {
  type CheckResult,
  checksWithSeverity,
  derivedValuesOf,
  deriveSubjectData,
  type EvaluateOptions,
  evaluateForm,
  evaluateSubject,
  type FormEvaluation,
  findFormEvaluation,
  type ItemState,
  type MissingItem,
  type OutcomeResult,
  type SectionState,
  type SubjectEvaluation,
} from './engine/evaluate-subject.ts';
export {
  changedItemKeys,
  enteredFormValues,
  isEmptyEntry,
  itemsNeedingReason,
  sameEntry,
} from './engine/form-changes.ts';
export { createFormSet, type FormSet, formsReachedByChange } from './engine/form-reach.ts';
export {
  computeFormStatus,
  computeStatusMatrix,
  FORM_STATUSES,
  type FormStatus,
  type FormStatusInput,
  type StoredFormState,
  type StoredFormStates,
} from './engine/form-status.ts';
export {
  type LabTestItems,
  numericLabTests,
} from './engine/lab-tests.ts';
export { VALUE_ERROR_CODES, type ValueErrorCode } from './engine/messages.ts';
export {
  type FormLayout,
  getFormLayout,
  getItemCodes,
  getStudyIndex,
  type ItemLocation,
  layoutsForData,
  YES_NO_CODES,
} from './engine/study-index.ts';
export { computeSubjectStatus, type SubjectStatus } from './engine/subject-status.ts';
export {
  ellipseArea,
  equivalentDiameter,
  PHOTO_REFERENCE_PATTERN,
  parsePhotoReference,
  parseTracing,
  photoReference,
  polygonArea,
  polygonMaxDiameter,
  serializeTracing,
  shapeArea,
  shapeMaxDiameter,
  TRACING_MAX_POINTS,
  type Tracing,
  type TracingLine,
  type TracingPoint,
  type TracingShape,
  tracingAreaPercent,
  tracingDiameterPercent,
  tracingSchema,
} from './engine/tracing.ts';
export { type ValueError, type ValueValidation, validateFormValues } from './engine/validate-values.ts';
export {
  type DatedUnscheduledVisit,
  isUnscheduledVisitKey,
  orderVisitKeys,
  resolveVisit,
  UNSCHEDULED_VISIT_PREFIX,
  unscheduledRepeatKey,
  unscheduledVisitKey,
} from './engine/visit-keys.ts';
export {
  computeVisitSchedule,
  type VisitScheduleEntry,
  type VisitWindowStatus,
} from './engine/visit-windows.ts';
export { checkExpressionText } from './expression-text/check-expression-text.ts';
export { eachExpression, type PlacedExpression } from './expression-text/each-expression.ts';
export {
  type CompletionKind,
  type CompletionOption,
  type ExpressionCompletions,
  expressionCompletions,
} from './expression-text/expression-completions.ts';
export { type ExpressionTextContext, formKeys } from './expression-text/expression-scope.ts';
export type { ExpressionTextProblem } from './expression-text/expression-syntax.ts';
export { formatExpression } from './expression-text/format-expression.ts';
export { type ParsedExpression, parseExpression } from './expression-text/parse-expression.ts';
export { type DesignElement, designElementsOf } from './model/design-elements.ts';
export * from './model/expression.ts';
export * as expr from './model/expression-builders.ts';
export type { FormValues, JsonPrimitive, JsonValue, SubjectData } from './model/json-value.ts';
export { type Language, type LocalizedText, localizedTextSchema } from './model/localized-text.ts';
export * from './model/study-definition.ts';
export {
  type StudyRoleField,
  type StudyRoleFieldKind,
  studyRoleField,
  studyRoleFields,
} from './model/study-role-fields.ts';
export {
  HEAR_FOLLOW_UP_DOCUMENT,
  STUDY_DEFINITION_JSON_SCHEMA,
  TM_PERFORATION_DOCUMENT,
  WRITE_DEFINITION_DOCUMENTS,
} from './studies/definition-document-files.ts';
export { exclusionCriteria, inclusionCriteria, tmPerforationStudy } from './studies/tm-perforation/index.ts';
export { SAMPLE_TODAY, sampleSubject } from './studies/tm-perforation/sample-subject.ts';
export {
  type FieldChange,
  sameValue as sameDefinitionValue,
} from './version-diff/compare-values.ts';
export {
  type DiffLine,
  type DiffLineKind,
  describeDiff,
  formatValue as formatDiffValue,
} from './version-diff/describe-diff.ts';
export {
  type CodeListChange,
  type CollectionDiff,
  type DefinitionDiff,
  diffDefinitions,
  type ElementChange,
  type FormChange,
  type LayoutDiff,
  type Move,
  type PlacedItem,
  type VariantChange,
  type VisitChange,
} from './version-diff/diff-definitions.ts';
export { DIFF_LINE_GROUPS, type DiffLineGroup, groupDiffLines } from './version-diff/group-diff-lines.ts';
export { type DiffCount, type DiffSummary, summarizeDiff } from './version-diff/summarize-diff.ts';
