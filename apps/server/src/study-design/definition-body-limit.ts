/**
 * A definition document's size limit (an upload, an import, a design draft). TMP-2026's is 0.2 MB; a
 * REDCap-sized design of 3,000 items in 60 forms is ~3 MB. Anything past this is refused (413) before
 * it is read.
 */
export const DEFINITION_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
