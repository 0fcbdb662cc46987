/**
 * The contract's schemas of the answers the signed-in shell and the dashboard read before they are
 * usable, imported only on demand (`import('./answer-schemas.ts')`, see api-answer.ts): with zod they
 * form a chunk of their own that loads once the page is there. A dynamic import of `@cdms/contract`
 * itself would put the whole contract in that chunk, with the plain values the shell needs at once.
 */
export {
  appInfoSchema,
  dashboardResponseSchema,
  studyListResponseSchema,
  subjectInfoResponseSchema,
} from '@cdms/contract';
