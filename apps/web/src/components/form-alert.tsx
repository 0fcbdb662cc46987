/**
 * What went wrong, under a form or a panel: a paragraph read out at once (`role="alert"`); nothing
 * while there is no message.
 */
export function FormAlert({
  message,
  className,
}: {
  message: string | null | undefined;
  className?: string;
}) {
  return message ? (
    <p className={className} role="alert">
      {message}
    </p>
  ) : null;
}
