import { paramIdSchema } from '@cdms/contract';
import { z } from 'zod';

/**
 * The path parameters the study routes share. Path ids are canonical positive decimals (no `0x13`,
 * `1.6e1`, `16.0`), ≤ 2^31 − 1 (`paramIdSchema`).
 */
export const studyParams = z.object({ studyId: paramIdSchema });
export const subjectParams = z.object({ studyId: paramIdSchema, subjectId: paramIdSchema });
