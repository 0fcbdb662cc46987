import { z } from 'zod';

/**
 * Longest reason a person gives for a change (reason for change, reset, deletion, SDV withdrawal,
 * freeze and lock). Its own file so the schemas that use it do not import each other.
 */
export const REASON_MAX = 500;

/** A reason a person gives for a change: trimmed, not empty, at most `REASON_MAX` characters. */
export const reasonSchema = z.string().trim().min(1).max(REASON_MAX);
