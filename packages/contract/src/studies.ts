import { z } from 'zod';
import { roleSchema } from './roles.ts';

export const menuTypeSchema = z.enum(['PI', 'CRA']);
export type MenuType = z.infer<typeof menuTypeSchema>;

/** A study as the task lists show it to one user. */
export const studySummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.string(),
  content: z.string(),
  status: z.enum(['active', 'ended']),
  /** Registration date, YYYY-MM-DD. */
  registeredOn: z.string(),
  /** The menu sets this user may open the study with (their roles' sets the study offers). */
  approaches: z.array(menuTypeSchema),
  roles: z.array(roleSchema),
});
export type StudySummary = z.infer<typeof studySummarySchema>;

export const studyListQuerySchema = z.object({
  status: z.enum(['active', 'ended']).default('active'),
  search: z.string().trim().max(100).optional(),
});

export const studyListResponseSchema = z.object({ studies: z.array(studySummarySchema) });
