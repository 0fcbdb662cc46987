import { type Compilable, type CompiledQuery, createQueryId, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A statement's parameters by name: the values a call binds (scalars only, see `compiledOnce`). */
type Parameters = Record<string, string | number | boolean | Date | null>;

/** Where a compiled parameter comes from: a named value of each call, or a constant of the statement. */
type Slot = { name: string } | { constant: unknown };

/** Stands in for a named parameter while the statement is built; never a real value. */
const MARKER = '\u0000compiled-once:';

/**
 * A statement whose text is the same on every call, built and compiled by kysely once: each later
 * call only binds its values. The busiest statements (a request's session, a save's subject) are
 * built from dozens of parts; building and compiling them again on every request was about a sixth
 * of the server's busy time in a profile of saves (issue 12, docs/PERFORMANCE.md).
 *
 * `build` receives markers in place of the values and must give the same statement whatever they
 * are: every named value a plain parameter (compared, inserted, set), not something whose shape
 * follows the value (an IN list, a value that picks a branch). The first call checks that each
 * name became exactly the parameters it stands for and refuses otherwise.
 */
export function compiledOnce<P extends Parameters, R>(
  build: (db: Executor, params: P) => Compilable<R>,
): CompiledOnce<P, R> {
  let compiled: { query: CompiledQuery<R>; slots: Slot[] } | undefined;
  const bind = (executor: Executor, params: P): CompiledQuery<R> => {
    compiled ??= compile(executor, build, Object.keys(params));
    const { query, slots } = compiled;
    const parameters = slots.map((slot) => ('name' in slot ? params[slot.name] : slot.constant));
    return { ...query, parameters, queryId: createQueryId() };
  };
  const run = async (executor: Executor, params: P) =>
    (await executor.executeQuery<R>(bind(executor, params))).rows;
  return Object.assign(run, { bind });
}

/** The row type of a compiled statement (a `bind` of one, or a function giving one). */
export type CompiledRow<Q> = Q extends CompiledQuery<infer R> ? R : never;

/** A statement compiled once: call it to run it, or `bind` it to send it another way (`sendUnanswered`). */
export interface CompiledOnce<P extends Parameters, R> {
  (executor: Executor, params: P): Promise<R[]>;
  /** The statement with this call's values bound, not sent. */
  bind(executor: Executor, params: P): CompiledQuery<R>;
}

function compile<P extends Parameters, R>(
  executor: Executor,
  build: (db: Executor, params: P) => Compilable<R>,
  names: string[],
): { query: CompiledQuery<R>; slots: Slot[] } {
  const markers = Object.fromEntries(names.map((name) => [name, `${MARKER}${name}`])) as unknown as P;
  const query = build(executor, markers).compile();
  const slots = query.parameters.map((value): Slot => {
    if (typeof value === 'string' && value.startsWith(MARKER)) return { name: value.slice(MARKER.length) };
    return { constant: value };
  });
  const bound = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
  const unbound = names.filter((name) => !bound.has(name));
  if (unbound.length > 0 || query.sql.includes(MARKER)) {
    throw new Error(
      `compiledOnce: ${unbound.join(', ') || 'a value'} is not a plain parameter of the statement: ${query.sql}`,
    );
  }
  return { query, slots };
}
