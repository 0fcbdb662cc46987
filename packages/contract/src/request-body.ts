/**
 * For partial updates (PUT with every field optional): the body must change something. `{}`, or a body
 * of unknown keys only (refused anyway: request bodies are strict objects), used to answer 200 and do
 * nothing, or worse, apply defaults.
 */
export function changesSomething(update: object): boolean {
  return Object.values(update).some((value) => value !== undefined);
}

/** The zod issue of an update that changes nothing (400 validation_failed, detail `nothing_to_change`). */
export const nothingToChange = { error: 'nothing_to_change' } as const;
