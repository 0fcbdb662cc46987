import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';

/** A form's problems by field, each said under its field. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * A dialog's form checked here as the server checks it (adding a subject, an unscheduled visit):
 * `submit` shows what `validate` finds under the fields and sends nothing then; else it runs `send`.
 * A refusal the server ties to a field (`fieldOf` names it) goes under that field, any other failure
 * under the form (`serverError`).
 */
export function useCheckedForm<Field extends string>({
  validate,
  send,
  fieldOf,
}: {
  validate: () => FieldErrors<Field>;
  send: () => Promise<void>;
  fieldOf: (refusal: ApiError) => Field | null;
}) {
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    try {
      await send();
    } catch (error) {
      const field = error instanceof ApiError ? fieldOf(error) : null;
      if (field !== null) setErrors({ [field]: (error as ApiError).message } as FieldErrors<Field>);
      else setServerError(error instanceof Error ? error.message : String(error));
    }
  }

  /** A corrected value hides its field's old message. */
  function clearError(field: Field) {
    setErrors(({ [field]: _, ...rest }) => rest as FieldErrors<Field>);
  }

  return { errors, clearError, serverError, submit };
}
