/** PostgreSQL's unique-violation error (SQLSTATE 23505), from either driver. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const {
    code,
    constraint: name,
    message,
  } = error as { code?: string; constraint?: string; message?: string };
  if (code !== '23505') return false;
  if (!constraint) return true;
  return name === constraint || (typeof message === 'string' && message.includes(constraint));
}
